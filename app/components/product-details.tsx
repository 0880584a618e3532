import { getFormProps } from "@conform-to/react";
import { Form, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { quantityBounds } from "~/lib/cart-client";
import { addToCartSchema } from "~/lib/cart-forms";
import { formatUsd } from "~/lib/money";
import { useSchemaForm } from "~/lib/use-schema-form";
import { ProductImage } from "./product-image";

export type ProductDetailsData = {
  _id: string;
  title: string;
  picture: string;
  description: string;
  minQuantity: number;
  maxQuantity: number | null;
};
export type ProductOptionData = {
  _id: string;
  title: string;
  availableStock: number;
  subOptions: { _id: string; title: string; duration: number; price: number }[];
};

/** The title without the bracketed notes and '| ...' suffixes that suppliers append. */
export function cleanProductTitle(title: string): string {
  const cleaned = title
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\s+\|.*$/, " ")
    .replace(/\s{2,}/g, " ")
    .trim();
  return cleaned || title.trim();
}

/** Longer descriptions get smaller text so the options stay in view (thresholds 200 and 500). */
export function descriptionDensity(description: string): "compact" | "medium" | "normal" {
  if (description.length > 500) return "compact";
  if (description.length >= 200) return "medium";
  return "normal";
}

const densityClass = { compact: "text-xs", medium: "text-sm", normal: "text-base" };

function Description({ text }: { text: string }) {
  const sections = text
    .split(/\n\s*\n/)
    .map((section) => section.trim())
    .filter(Boolean);
  if (sections.length === 0) return null;
  return (
    <div
      data-density={descriptionDensity(text)}
      className={`flex flex-col gap-2 text-slate-700 ${densityClass[descriptionDensity(text)]}`}
    >
      {sections.map((section, index) => (
        <p key={index} className="whitespace-pre-line">
          {section}
        </p>
      ))}
    </div>
  );
}

function stockText(option: ProductOptionData) {
  return option.availableStock > 0 ? `${option.availableStock} available` : "Out of Stock";
}

/**
 * Plan options, warranty durations, order summary, quantity and Add to Cart. Without JS, choosing a plan is a GET
 * form (?option=ID) that renders that plan's durations; with JS the choice is instant.
 */
export function ProductDetails({
  product,
  options,
  initialOptionId,
  keptSearch,
  redirectTo,
}: {
  product: ProductDetailsData;
  options: ProductOptionData[];
  initialOptionId: string | undefined;
  /** q and category of the shop, kept by the plan form. */
  keptSearch: Record<string, string>;
  redirectTo: string;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const [optionId, setOptionId] = useState(initialOptionId);
  const [duration, setDuration] = useState<number>();
  const option = options.find((candidate) => candidate._id === optionId);
  const bounds = quantityBounds(product, option?.availableStock ?? 0);
  // The box keeps what the user types; the summary and the steppers use it clamped into the bounds.
  const [quantityText, setQuantityText] = useState(String(product.minQuantity));
  const typedQuantity = Number.parseInt(quantityText, 10);
  const clampedQuantity = Math.min(
    Math.max(Number.isNaN(typedQuantity) ? bounds.min : typedQuantity, bounds.min),
    bounds.max,
  );
  const setQuantity = (value: number) => setQuantityText(String(value));
  const chosenDuration = option?.subOptions.find((candidate) => candidate.duration === duration);
  const purchasable = !!option && option.availableStock >= product.minQuantity && option.subOptions.length > 0;

  // Checked on submit: a plan's durations come and go as plans are chosen, so a blur says nothing yet.
  const [form, fields] = useSchemaForm(addToCartSchema, {
    id: `add-to-cart-${product._id}`,
    shouldValidate: "onSubmit",
  });

  const chooseOption = (id: string) => {
    setOptionId(id);
    setDuration(undefined);
    setQuantity(product.minQuantity);
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row">
        <ProductImage src={product.picture} alt={product.title} className="aspect-video w-full rounded-lg sm:w-56" />
        <Description text={product.description} />
      </div>

      <Form method="get" preventScrollReset replace>
        {Object.entries(keptSearch).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 font-semibold">Choose a plan</legend>
          {options.length === 0 && <p className="text-slate-600">No plans are available right now.</p>}
          {options.map((candidate) => {
            const soldOut = candidate.availableStock < product.minQuantity;
            return (
              <label
                key={candidate._id}
                className={`flex items-center gap-3 rounded-lg border p-3 ${
                  candidate._id === optionId ? "border-brand-600 bg-brand-50" : "border-slate-200"
                } ${soldOut ? "cursor-not-allowed opacity-60" : "cursor-pointer"}`}
              >
                <input
                  type="radio"
                  name="option"
                  value={candidate._id}
                  defaultChecked={candidate._id === initialOptionId}
                  disabled={soldOut}
                  onChange={() => chooseOption(candidate._id)}
                />
                <span className="flex-1 font-medium">{candidate.title}</span>
                <span className={`text-sm ${soldOut ? "font-semibold text-red-700" : "text-slate-600"}`}>
                  {stockText(candidate)}
                </span>
              </label>
            );
          })}
        </fieldset>
        {!hydrated && options.length > 0 && (
          <button
            type="submit"
            className="mt-2 rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100"
          >
            Show warranty options for this plan
          </button>
        )}
      </Form>

      <fetcher.Form
        method="post"
        action="/cart"
        preventScrollReset
        {...getFormProps(form)}
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {option && <input type="hidden" name="optionId" value={option._id} />}

        {option && (
          <fieldset key={option._id} className="flex flex-col gap-2" aria-describedby={fields.duration.errorId}>
            <legend className="mb-2 font-semibold">Warranty for {option.title}</legend>
            {option.subOptions.map((subOption) => (
              <label
                key={subOption._id}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={fields.duration.name}
                  value={subOption.duration}
                  required={fields.duration.required}
                  disabled={!purchasable}
                  onChange={() => setDuration(subOption.duration)}
                />
                <span className="flex-1">{subOption.title}</span>
                <span className="font-semibold">{formatUsd(subOption.price)}</span>
              </label>
            ))}
          </fieldset>
        )}
        <p id={fields.duration.errorId} role="alert" className="min-h-5 text-sm font-semibold text-red-700">
          {fields.duration.errors?.[0]}
        </p>

        <div className="flex flex-col gap-1">
          <label htmlFor={fields.quantity.id} className="font-semibold">
            Quantity
          </label>
          <div className="flex items-center gap-2">
            {hydrated && (
              <button
                type="button"
                aria-label="Decrease quantity"
                disabled={clampedQuantity <= bounds.min}
                onClick={() => setQuantity(clampedQuantity - 1)}
                className="grid size-9 place-items-center rounded-md border border-slate-300 font-bold disabled:opacity-40"
              >
                −
              </button>
            )}
            <input
              id={fields.quantity.id}
              type="number"
              name={fields.quantity.name}
              value={quantityText}
              onChange={(event) => setQuantityText(event.currentTarget.value)}
              onBlur={() => setQuantity(clampedQuantity)}
              min={bounds.min}
              max={bounds.max}
              step={1}
              required
              disabled={!purchasable}
              className="w-20 rounded-md border border-slate-300 px-2 py-1.5 text-center"
            />
            {hydrated && (
              <button
                type="button"
                aria-label="Increase quantity"
                disabled={clampedQuantity >= bounds.max}
                onClick={() => setQuantity(clampedQuantity + 1)}
                className="grid size-9 place-items-center rounded-md border border-slate-300 font-bold disabled:opacity-40"
              >
                +
              </button>
            )}
            <span className="text-sm text-slate-600">
              {bounds.min} to {bounds.max}
            </span>
          </div>
          {fields.quantity.errors && <p className="text-sm font-semibold text-red-700">{fields.quantity.errors[0]}</p>}
        </div>

        <section aria-label="Order summary" className="rounded-lg bg-slate-50 p-4 text-sm">
          <h3 className="mb-2 font-semibold">Order summary</h3>
          <dl className="grid grid-cols-2 gap-y-1">
            <dt>Plan</dt>
            <dd className="text-right">{option?.title ?? "—"}</dd>
            <dt>Warranty</dt>
            <dd className="text-right">{chosenDuration?.title ?? "—"}</dd>
            <dt>Unit price</dt>
            <dd className="text-right">{chosenDuration ? formatUsd(chosenDuration.price) : "—"}</dd>
            <dt>Quantity</dt>
            <dd className="text-right">{hydrated ? clampedQuantity : "—"}</dd>
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold" data-testid="summary-total">
              {chosenDuration && hydrated ? formatUsd(chosenDuration.price * clampedQuantity) : "—"}
            </dd>
          </dl>
        </section>

        <button
          type="submit"
          disabled={!purchasable || fetcher.state !== "idle"}
          className="rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {fetcher.state !== "idle" ? "Adding…" : "Add to Cart"}
        </button>
      </fetcher.Form>
    </div>
  );
}
