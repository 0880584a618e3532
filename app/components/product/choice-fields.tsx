import type { FieldMeta } from "~/lib/server-form";
import { formatUsd } from "~/lib/money";
import type { ProductOptionData } from "../product-details";

/* The product form's three choices: the plan, its warranty and the quantity (product-details.tsx holds their state). */

export const NO_SCRIPT_BUTTON = "rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100";

function stockText(option: ProductOptionData) {
  return option.availableStock > 0 ? `${option.availableStock} available` : "Out of Stock";
}

export function PlanChoice({
  field,
  options,
  optionId,
  initialOptionId,
  minQuantity,
  onChoose,
}: {
  field: FieldMeta;
  options: ProductOptionData[];
  optionId: string | undefined;
  initialOptionId: string | undefined;
  minQuantity: number;
  onChoose: (optionId: string) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-semibold">Choose a plan</legend>
      {options.length === 0 && <p className="text-slate-600">No plans are available right now.</p>}
      {options.map((candidate) => {
        const soldOut = candidate.availableStock < minQuantity;
        return (
          <label
            key={candidate._id}
            className={`flex items-center gap-3 rounded-lg border p-3 ${
              candidate._id === optionId ? "border-brand-600 bg-brand-50" : "border-slate-200"
            } ${soldOut ? "cursor-not-allowed opacity-60" : "cursor-pointer"}`}
          >
            <input
              type="radio"
              name={field.name}
              value={candidate._id}
              defaultChecked={candidate._id === initialOptionId}
              disabled={soldOut}
              onChange={() => onChoose(candidate._id)}
            />
            <span className="flex-1 font-medium">{candidate.title}</span>
            <span className={`text-sm ${soldOut ? "font-semibold text-red-700" : "text-slate-600"}`}>
              {stockText(candidate)}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

export function WarrantyChoice({
  field,
  option,
  initialDuration,
  disabled,
  onChoose,
}: {
  field: FieldMeta;
  option: ProductOptionData;
  /** The warranty the URL names, checked when this is the plan the URL names. */
  initialDuration: number | undefined;
  disabled: boolean;
  onChoose: (duration: number) => void;
}) {
  return (
    <fieldset data-warranties className="flex flex-col gap-2" aria-describedby={field.errorId}>
      <legend className="mb-2 font-semibold">Warranty for {option.title}</legend>
      {option.subOptions.map((subOption) => (
        <label
          key={subOption._id}
          className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
        >
          <input
            type="radio"
            name={field.name}
            value={subOption.duration}
            defaultChecked={subOption.duration === initialDuration}
            disabled={disabled}
            onChange={() => onChoose(subOption.duration)}
          />
          <span className="flex-1">{subOption.title}</span>
          <span className="font-semibold">{formatUsd(subOption.price)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function StepButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="grid size-9 place-items-center rounded-md border border-slate-300 font-bold disabled:opacity-40"
    >
      {children}
    </button>
  );
}

/**
 * The box keeps what the user types; the steppers (JS only) use it clamped into the bounds. Without JS,
 * "Update total" sends the form as a GET so the server renders the total.
 */
export function QuantityField({
  field,
  text,
  onText,
  clamped,
  bounds,
  hydrated,
  disabled,
  productHref,
}: {
  field: FieldMeta;
  text: string;
  onText: (text: string) => void;
  clamped: number;
  bounds: { min: number; max: number };
  hydrated: boolean;
  disabled: boolean;
  productHref: string;
}) {
  const typed = Number.parseInt(text, 10);
  const overMax = !Number.isNaN(typed) && typed > bounds.max;
  const boundsId = `${field.id}-bounds`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="font-semibold">
        Quantity
      </label>
      <div className="flex flex-wrap items-center gap-2">
        {hydrated && (
          <StepButton
            label="Decrease quantity"
            disabled={clamped <= bounds.min}
            onClick={() => onText(String(clamped - 1))}
          >
            −
          </StepButton>
        )}
        <input
          id={field.id}
          type="number"
          name={field.name}
          value={text}
          onChange={(event) => onText(event.currentTarget.value)}
          onBlur={() => onText(String(clamped))}
          min={bounds.min}
          max={bounds.max}
          step={1}
          aria-describedby={boundsId}
          disabled={disabled}
          className="w-20 rounded-md border border-slate-300 px-2 py-1.5 text-center"
        />
        {hydrated && (
          <StepButton
            label="Increase quantity"
            disabled={clamped >= bounds.max}
            onClick={() => onText(String(clamped + 1))}
          >
            +
          </StepButton>
        )}
        <span id={boundsId} className="text-sm text-slate-600">
          {bounds.min} to {bounds.max}
        </span>
        {!hydrated && !disabled && (
          <button type="submit" formMethod="get" formAction={productHref} className={NO_SCRIPT_BUTTON}>
            Update total
          </button>
        )}
      </div>
      {overMax && (
        <p role="status" className="text-sm font-semibold text-amber-800">
          At most {bounds.max} can be ordered: {bounds.max} will be added.
        </p>
      )}
      {field.errors && <p className="text-sm font-semibold text-red-700">{field.errors[0]}</p>}
    </div>
  );
}
