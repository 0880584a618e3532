import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { quantityBounds, SELECT_WARRANTY } from "~/lib/cart-client";
import type { addToCartSchema } from "~/lib/cart-forms";
import { FORM_CONSTRAINTS } from "~/lib/cart-forms.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import { NO_SCRIPT_BUTTON, PlanChoice, QuantityField, WarrantyChoice } from "./product/choice-fields";
import { Description } from "./product/description";
import { NoScriptSummaryStyle, OrderSummary } from "./product/order-summary";
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

/** Where the product form starts: the plan, warranty and quantity the URL names (the no-JS GET). */
export type ProductChoice = { optionId: string | undefined; duration: number | undefined; quantity: number };

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
    setQuantityText(String(product.minQuantity));
  };
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

        <PlanChoice
          field={fields.optionId}
          options={options}
          optionId={optionId}
          initialOptionId={initial.optionId}
          minQuantity={product.minQuantity}
          onChoose={chooseOption}
        />
        {option && (
          <WarrantyChoice
            key={option._id}
            field={fields.duration}
            option={option}
            initialDuration={option._id === initial.optionId ? initial.duration : undefined}
            disabled={!purchasable}
            onChoose={(chosen) => {
              setDuration(chosen);
              setWarrantyMissing(false);
            }}
          />
        )}
        <p id={fields.duration.errorId} role="alert" className="min-h-5 text-sm font-semibold text-red-700">
          {durationError}
        </p>
        {/* After the warranties, not between them and the plans: it goes away at hydration, and nothing a person may
            be tapping then may move under the finger. Without JS, another plan's warranties are hidden, so it
            follows the plans. */}
        {!hydrated && options.length > 0 && (
          <div className="flex flex-col gap-2">
            <p data-other-plan className="hidden text-sm font-semibold text-amber-800">
              Press “Show warranty options for this plan” to see the warranties of the plan you chose.
            </p>
            <button
              type="submit"
              formMethod="get"
              formAction={productHref}
              className={`self-start ${NO_SCRIPT_BUTTON}`}
            >
              Show warranty options for this plan
            </button>
          </div>
        )}

        <QuantityField
          field={fields.quantity}
          text={quantityText}
          onText={setQuantityText}
          clamped={clampedQuantity}
          bounds={bounds}
          hydrated={hydrated}
          disabled={!purchasable}
          productHref={productHref}
        />

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
