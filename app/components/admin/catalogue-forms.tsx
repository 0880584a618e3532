import {
  type SubmissionResult,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { inputClass, listOf } from "~/components/admin/admin-ui";
import { OnceKeyField } from "~/components/admin/once-key";
import {
  categoryFormSchema,
  durationFormSchema,
  optionFormSchema,
  productFormSchema,
} from "~/components/admin/catalogue-schemas";
import type { AdminCategory, AdminDuration, AdminOption, AdminProduct } from "~/lib/admin-catalogue.server";
import { useSchemaForm } from "~/lib/use-schema-form";

/* The catalogue's forms (ADR 024): plain posts that work without JavaScript; conform adds live checks. */

type Answer = SubmissionResult<string[]> | undefined;

const numberText = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
const textareaClass = `${inputClass} font-[inherit]`;

function Labelled({
  meta,
  label,
  hint,
  children,
}: {
  meta: { id: string; errorId: string; errors?: string[] };
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A number box that opens the phone's number pad. */
function NumberInput({ meta, decimal = false }: { meta: Parameters<typeof getInputProps>[0]; decimal?: boolean }) {
  const { key, ...props } = getInputProps(meta, { type: "number" });
  return (
    <input
      key={key}
      {...props}
      inputMode={decimal ? "decimal" : "numeric"}
      step={decimal ? "0.01" : "1"}
      className={inputClass}
    />
  );
}

export function CategoryForm({
  id,
  category,
  lastResult,
  intent,
  submitLabel,
  hidden,
}: {
  id: string;
  category?: AdminCategory;
  lastResult: Answer;
  intent: string;
  submitLabel: string;
  hidden?: Record<string, string>;
}) {
  const [form, fields] = useSchemaForm(categoryFormSchema, {
    id,
    lastResult,
    defaultValue: { name: category?.name ?? "", position: numberText(category?.position ?? 0) },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <FormErrors form={form} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <TextField label="Name" meta={fields.name} type="text" autoComplete="off" />
        <Labelled meta={fields.position} label="Position" hint="Lower comes first in the shop.">
          <NumberInput meta={fields.position} />
        </Labelled>
      </div>
      <div>
        <SubmitButton intent={intent} pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function ProductForm({
  product,
  categories,
  lastResult,
  intent,
  submitLabel,
  onceKey,
}: {
  product?: AdminProduct;
  categories: AdminCategory[];
  lastResult: Answer;
  intent: string;
  submitLabel: string;
  /** A new product's one-time key: the form posted twice makes one product. */
  onceKey?: string;
}) {
  const [form, fields] = useSchemaForm(productFormSchema, {
    id: product ? `product-${product._id}` : "product-new",
    lastResult,
    defaultValue: {
      title: product?.title ?? "",
      label: product?.label ?? "",
      subtitle: product?.subtitle ?? "",
      description: product?.description ?? "",
      deliveryNotes: product?.deliveryNotes ?? "",
      picture: product?.picture ?? "",
      minQuantity: numberText(product?.minQuantity ?? 1),
      maxQuantity: numberText(product?.maxQuantity),
      fulfilMode: product?.fulfilMode ?? "auto",
      replacementLimit: numberText(product?.replacementLimit ?? 3),
      autoReplace: (product?.autoReplace ?? true) ? "on" : undefined,
      active: (product?.active ?? true) ? "on" : undefined,
      position: numberText(product?.position ?? 0),
      categoryIds: product?.categoryIds ?? [],
    },
  });
  const { key: modeKey, ...modeProps } = getSelectProps(fields.fulfilMode);
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.description);
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.deliveryNotes);
  const { key: activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });
  const { key: replaceKey, ...replaceProps } = getInputProps(fields.autoReplace, { type: "checkbox" });
  const chosen = new Set(listOf(fields.categoryIds.initialValue));

  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <OnceKeyField value={onceKey} />
      <FormErrors form={form} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField label="Title" meta={fields.title} type="text" autoComplete="off" />
        <TextField
          label="Label"
          meta={fields.label}
          type="text"
          autoComplete="off"
          hint="A short line above the title on the card, such as STREAMING."
        />
        <TextField label="Subtitle" meta={fields.subtitle} type="text" autoComplete="off" />
        <TextField
          label="Picture address"
          meta={fields.picture}
          type="text"
          autoComplete="off"
          hint="Upload a file below once the product exists; the store serves every picture itself."
        />
      </div>
      <Labelled meta={fields.description} label="Description">
        <textarea key={descriptionKey} {...descriptionProps} rows={4} className={textareaClass} />
      </Labelled>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Labelled meta={fields.minQuantity} label="Minimum quantity">
          <NumberInput meta={fields.minQuantity} />
        </Labelled>
        <Labelled meta={fields.maxQuantity} label="Maximum quantity" hint="Empty: up to the stock (999 at most).">
          <NumberInput meta={fields.maxQuantity} />
        </Labelled>
        <Labelled meta={fields.position} label="Position" hint="Lower comes first in the shop.">
          <NumberInput meta={fields.position} />
        </Labelled>
        <Labelled meta={fields.fulfilMode} label="Delivery">
          <select key={modeKey} {...modeProps} className={inputClass}>
            <option value="auto">Automatic, from stock</option>
            <option value="manual">Manual, by staff</option>
          </select>
        </Labelled>
        <Labelled
          meta={fields.replacementLimit}
          label="Replacements per credential"
          hint="How often one delivered credential may be replaced under warranty."
        >
          <NumberInput meta={fields.replacementLimit} />
        </Labelled>
      </div>
      <Labelled
        meta={fields.deliveryNotes}
        label="Delivery notes"
        hint="Shown to the buyer with the credentials (or while a manual order waits)."
      >
        <textarea key={notesKey} {...notesProps} rows={3} className={textareaClass} />
      </Labelled>
      <fieldset className="flex min-w-0 flex-col gap-1">
        <legend className="text-sm font-semibold">Categories</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1 rounded-md border border-slate-300 p-2">
          {categories.length === 0 && <p className="text-sm text-slate-600">No categories yet.</p>}
          {categories.map((category) => (
            <label key={category._id} className="flex items-center gap-2 text-sm break-words">
              <input
                type="checkbox"
                name={fields.categoryIds.name}
                value={category._id}
                defaultChecked={chosen.has(category._id)}
              />
              {category.name}
            </label>
          ))}
        </div>
        <ErrorList id={fields.categoryIds.errorId} errors={fields.categoryIds.errors} />
      </fieldset>
      <label className="flex items-center gap-2 font-semibold">
        <input key={activeKey} {...activeProps} />
        Visible in the shop
      </label>
      <label className="flex items-center gap-2 font-semibold">
        <input key={replaceKey} {...replaceProps} />
        Fill warranty replacements from stock at once (off: staff review each request)
      </label>
      <div>
        <SubmitButton intent={intent} pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function OptionForm({
  id,
  option,
  lastResult,
  intent,
  submitLabel,
  hidden,
}: {
  id: string;
  option?: AdminOption;
  lastResult: Answer;
  intent: string;
  submitLabel: string;
  hidden?: Record<string, string>;
}) {
  const [form, fields] = useSchemaForm(optionFormSchema, {
    id,
    lastResult,
    defaultValue: {
      title: option?.title ?? "",
      seats: numberText(option?.seats ?? 1),
      lowStockThreshold: numberText(option?.lowStockThreshold ?? 0),
      active: (option?.active ?? true) ? "on" : undefined,
      position: numberText(option?.position ?? 0),
    },
  });
  const { key: activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });
  const seatsLocked = !!option && option.stockRows > 0;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <FormErrors form={form} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField label="Option title" meta={fields.title} type="text" autoComplete="off" />
        <Labelled
          meta={fields.seats}
          label="Buyers per account (seats)"
          hint={
            seatsLocked
              ? "Fixed: this option has stock. Each imported account holds one row per seat."
              : "1 for a private account; more for a shared one, such as a profile on a family plan."
          }
        >
          {seatsLocked ? (
            <>
              <input type="hidden" name={fields.seats.name} value={String(option.seats)} />
              <input
                id={fields.seats.id}
                value={String(option.seats)}
                readOnly
                aria-readonly="true"
                className={`${inputClass} bg-slate-100`}
              />
            </>
          ) : (
            <NumberInput meta={fields.seats} />
          )}
        </Labelled>
        <Labelled
          meta={fields.lowStockThreshold}
          label="Low-stock threshold"
          hint="Listed as low and the operator told when free seats fall under it. 0: never."
        >
          <NumberInput meta={fields.lowStockThreshold} />
        </Labelled>
        <Labelled meta={fields.position} label="Position">
          <NumberInput meta={fields.position} />
        </Labelled>
      </div>
      <label className="flex items-center gap-2 font-semibold">
        <input key={activeKey} {...activeProps} />
        On sale
      </label>
      <div>
        <SubmitButton intent={intent} pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function DurationForm({
  id,
  duration,
  lastResult,
  intent,
  submitLabel,
  hidden,
}: {
  id: string;
  duration?: AdminDuration;
  lastResult: Answer;
  intent: string;
  submitLabel: string;
  hidden: Record<string, string>;
}) {
  const [form, fields] = useSchemaForm(durationFormSchema, {
    id,
    lastResult,
    defaultValue: {
      title: duration?.title ?? "",
      days: numberText(duration?.days),
      price: duration ? duration.price.toFixed(2) : "",
      position: numberText(duration?.position ?? 0),
    },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <FormErrors form={form} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <TextField label="Warranty title" meta={fields.title} type="text" autoComplete="off" />
        <Labelled meta={fields.days} label="Days">
          <NumberInput meta={fields.days} />
        </Labelled>
        <Labelled meta={fields.price} label="Price (USD)">
          <NumberInput meta={fields.price} decimal />
        </Labelled>
        <Labelled meta={fields.position} label="Position">
          <NumberInput meta={fields.position} />
        </Labelled>
      </div>
      <div>
        <SubmitButton intent={intent} pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
