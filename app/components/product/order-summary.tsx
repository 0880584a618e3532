import { formatUsd } from "~/lib/money";
import type { ProductOptionData } from "../product-details";

/**
 * Without JS the summary cannot be computed in the browser, so it is CSS: the server renders a row for
 * every plan and warranty, and `:has(:checked)` shows the chosen one. Plan radios that differ from the
 * plan whose warranties are shown hide those warranties and ask for "Show warranty options".
 */
export function NoScriptSummaryStyle({
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

/** With JS the figures follow the form's state; without JS every candidate is rendered and CSS shows the chosen one. */
export function OrderSummary({
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
