import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { quantityBounds, SELECT_WARRANTY } from "~/lib/cart-client";
import type { addToCartSchema } from "~/lib/cart-forms";
import { formatUsd } from "~/lib/money";
import { FORM_CONSTRAINTS } from "~/lib/cart-forms.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import { ProductImage } from "./product-image";
import type { z } from "zod";

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

// Body text stays at 14 px or more, however long the description (issue 26).
const densityClass = { compact: "text-sm", medium: "text-[0.9375rem]", normal: "text-base" };

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

/** Where the product form starts: the plan, warranty and quantity the URL names (the no-JS GET). */
export type ProductChoice = { optionId: string | undefined; duration: number | undefined; quantity: number };

/**
 * Without JS the summary cannot be computed in the browser, so it is CSS: the server renders a row for
 * every plan and warranty, and `:has(:checked)` shows the chosen one. Plan radios that differ from the
 * plan whose warranties are shown hide those warranties and ask for "Show warranty options".
 */
function NoScriptSummaryStyle({
  formId,
  shownOptionId,
  options,
  durations,
}: {
  formId: string;
  shownOptionId: string | undefined;
  options: ProductOptionData[];
  durations: number[];
}) {
  const form = `form[id="${formId}"]`;
  const rules = [
    `${form} [data-when-plan], ${form} [data-when-duration] { display: none; }`,
    `${form}:not(:has(input[name="duration"]:checked)) [data-when-duration="none"] { display: inline; }`,
    ...durations.map(
      (duration) =>
        `${form}:has(input[name="duration"][value="${duration}"]:checked) [data-when-duration="${duration}"] { display: inline; }`,
    ),
    ...options.map(
      (option) =>
        `${form}:has(input[name="optionId"][value="${option._id}"]:checked) [data-when-plan="${option._id}"] { display: inline; }`,
    ),
    ...(shownOptionId
      ? [
          `${form}:has(input[name="optionId"]:checked:not([value="${shownOptionId}"])) [data-warranties] { display: none; }`,
          `${form}:has(input[name="optionId"]:checked:not([value="${shownOptionId}"])) [data-other-plan] { display: block; }`,
        ]
      : []),
  ];
  // Set as HTML: React would escape the quotes of the selectors. Ids and durations are [A-Za-z0-9_-] and digits.
  return <style dangerouslySetInnerHTML={{ __html: rules.join("\n") }} />;
}

/**
 * Plan options, warranty durations, order summary, quantity and Add to Cart, in ONE form, so the plan posted is
 * the plan checked. Without JS, "Show warranty options" and "Update total" send the same form as a GET to the
 * product's URL, which renders that plan's durations and the total; the hidden `warrantyOptionId` names the plan
 * whose durations were shown, and the action refuses a warranty of another plan. With JS the choice is instant.
 */
export function ProductDetails({
  product,
  options,
  initial,
  keptSearch,
  redirectTo,
  errorRedirectTo,
}: {
  product: ProductDetailsData;
  options: ProductOptionData[];
  initial: ProductChoice;
  /** q and category of the shop, kept by the plan form. */
  keptSearch: Record<string, string>;
  redirectTo: string;
  /** Where a refused Add to Cart comes back to: this product, with its message. */
  errorRedirectTo: string;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const [optionId, setOptionId] = useState(initial.optionId);
  const [duration, setDuration] = useState(initial.duration);
  const option = options.find((candidate) => candidate._id === optionId);
  const bounds = quantityBounds(product, option?.availableStock ?? 0);
  // The box keeps what the user types; the summary and the steppers use it clamped into the bounds.
  const [quantityText, setQuantityText] = useState(String(initial.quantity));
  const typedQuantity = Number.parseInt(quantityText, 10);
  const clampedQuantity = Math.min(
    Math.max(Number.isNaN(typedQuantity) ? bounds.min : typedQuantity, bounds.min),
    bounds.max,
  );
  const overMax = !Number.isNaN(typedQuantity) && typedQuantity > bounds.max;
  const setQuantity = (value: number) => setQuantityText(String(value));
  const chosenDuration = option?.subOptions.find((candidate) => candidate.duration === duration);
  const purchasable = !!option && option.availableStock >= product.minQuantity && option.subOptions.length > 0;

  const [form, fields] = useServerForm<z.input<typeof addToCartSchema>>(FORM_CONSTRAINTS.addToCart, {
    id: `add-to-cart-${product._id}`,
  });
  // Without JS the browser's bubble would hide the server's message: the server checks and answers.
  const formProps = { ...getFormProps(form), noValidate: true };
  // With JS a missing warranty is said at once, beside the warranties, instead of after a round trip.
  const [warrantyMissing, setWarrantyMissing] = useState(false);
  const durationError = warrantyMissing ? SELECT_WARRANTY : fields.duration.errors?.[0];

  const chooseOption = (id: string) => {
    setOptionId(id);
    setDuration(undefined);
    setWarrantyMissing(false);
    setQuantity(product.minQuantity);
  };
  const noScriptButton = "rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100";
  const productHref = `/shop/${product._id}`;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row">
        <ProductImage src={product.picture} alt={product.title} className="aspect-video w-full rounded-lg sm:w-56" />
        <Description text={product.description} />
      </div>

      <fetcher.Form
        method="post"
        action="/cart"
        preventScrollReset
        {...formProps}
        onSubmit={(event) => {
          if (duration !== undefined || !option) return;
          event.preventDefault();
          setWarrantyMissing(true);
        }}
        className="flex flex-col gap-4"
      >
        {!hydrated && (
          <NoScriptSummaryStyle
            formId={form.id}
            shownOptionId={option?._id}
            options={options}
            durations={option?.subOptions.map((subOption) => subOption.duration) ?? []}
          />
        )}
        {Object.entries(keptSearch).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="errorRedirectTo" value={errorRedirectTo} />
        {option && <input type="hidden" name="warrantyOptionId" value={option._id} />}

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
                  name={fields.optionId.name}
                  value={candidate._id}
                  defaultChecked={candidate._id === initial.optionId}
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
          <div className="flex flex-col gap-2">
            <p data-other-plan className="hidden text-sm font-semibold text-amber-800">
              Press “Show warranty options for this plan” to see the warranties of the plan you chose.
            </p>
            <button type="submit" formMethod="get" formAction={productHref} className={`self-start ${noScriptButton}`}>
              Show warranty options for this plan
            </button>
          </div>
        )}

        {option && (
          <fieldset
            key={option._id}
            data-warranties
            className="flex flex-col gap-2"
            aria-describedby={fields.duration.errorId}
          >
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
                  defaultChecked={subOption.duration === initial.duration && option._id === initial.optionId}
                  disabled={!purchasable}
                  onChange={() => {
                    setDuration(subOption.duration);
                    setWarrantyMissing(false);
                  }}
                />
                <span className="flex-1">{subOption.title}</span>
                <span className="font-semibold">{formatUsd(subOption.price)}</span>
              </label>
            ))}
          </fieldset>
        )}
        <p id={fields.duration.errorId} role="alert" className="min-h-5 text-sm font-semibold text-red-700">
          {durationError}
        </p>

        <div className="flex flex-col gap-1">
          <label htmlFor={fields.quantity.id} className="font-semibold">
            Quantity
          </label>
          <div className="flex flex-wrap items-center gap-2">
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
              aria-describedby={`${fields.quantity.id}-bounds`}
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
            <span id={`${fields.quantity.id}-bounds`} className="text-sm text-slate-600">
              {bounds.min} to {bounds.max}
            </span>
            {!hydrated && purchasable && (
              <button type="submit" formMethod="get" formAction={productHref} className={noScriptButton}>
                Update total
              </button>
            )}
          </div>
          {overMax && (
            <p role="status" className="text-sm font-semibold text-amber-800">
              At most {bounds.max} can be ordered: {bounds.max} will be added.
            </p>
          )}
          {fields.quantity.errors && <p className="text-sm font-semibold text-red-700">{fields.quantity.errors[0]}</p>}
        </div>

        <OrderSummary
          hydrated={hydrated}
          options={options}
          option={option}
          chosenDuration={chosenDuration}
          quantity={hydrated ? clampedQuantity : initial.quantity}
        />

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

/** With JS the figures follow the form's state; without JS every candidate is rendered and CSS shows the chosen one. */
function OrderSummary({
  hydrated,
  options,
  option,
  chosenDuration,
  quantity,
}: {
  hydrated: boolean;
  options: ProductOptionData[];
  option: ProductOptionData | undefined;
  chosenDuration: ProductOptionData["subOptions"][number] | undefined;
  quantity: number;
}) {
  const byDuration = (show: (subOption: ProductOptionData["subOptions"][number]) => string) =>
    hydrated ? (
      ((chosenDuration && show(chosenDuration)) ?? "—")
    ) : (
      <>
        <span data-when-duration="none">Choose a warranty</span>
        {option?.subOptions.map((subOption) => (
          <span key={subOption._id} data-when-duration={subOption.duration}>
            {show(subOption)}
          </span>
        ))}
      </>
    );
  return (
    <section aria-label="Order summary" className="rounded-lg bg-slate-50 p-4 text-sm">
      <h3 className="mb-2 font-semibold">Order summary</h3>
      <dl className="grid grid-cols-2 gap-y-1">
        <dt>Plan</dt>
        <dd className="text-right">
          {hydrated
            ? (option?.title ?? "—")
            : options.map((candidate) => (
                <span key={candidate._id} data-when-plan={candidate._id}>
                  {candidate.title}
                </span>
              ))}
        </dd>
        <dt>Warranty</dt>
        <dd className="text-right">{byDuration((subOption) => subOption.title)}</dd>
        <dt>Unit price</dt>
        <dd className="text-right">{byDuration((subOption) => formatUsd(subOption.price))}</dd>
        <dt>Quantity</dt>
        <dd className="text-right">{quantity}</dd>
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold" data-testid="summary-total">
          {byDuration((subOption) => formatUsd(subOption.price * quantity))}
        </dd>
      </dl>
    </section>
  );
}
