import type { SubmissionResult } from "@conform-to/react";
import { TextField } from "~/components/account/form-fields";
import {
  AdminForm,
  CheckboxField,
  CheckboxGroup,
  Field,
  NumberField,
  SelectField,
  TextAreaField,
} from "~/components/admin/admin-fields";
import { inputClass } from "~/components/admin/admin-ui";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import {
  categoryFormSchema,
  durationFormSchema,
  optionFormSchema,
  productFormSchema,
} from "~/components/admin/catalogue-schemas";
import type { AdminCategory, AdminDuration, AdminOption, AdminProduct } from "~/lib/admin-catalogue.server";
import { useSchemaForm } from "~/lib/use-schema-form";

/* The catalogue's forms (ADR 024): plain posts that work without JavaScript; conform adds live checks. */

/** What every catalogue form is told: its id (its reply's), its last reply, its button and its hidden inputs. */
type CatalogueFormProps = {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  intent: string;
  submitLabel: string;
  hidden?: Record<string, string>;
};

const numberText = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
const checked = (value: boolean | undefined, otherwise: boolean) => ((value ?? otherwise) ? "on" : undefined);
const POSITION_HINT = "Lower comes first in the shop.";

export function CategoryForm({ category, id, lastResult, ...form }: CatalogueFormProps & { category?: AdminCategory }) {
  const [meta, fields] = useSchemaForm(categoryFormSchema, {
    id,
    lastResult,
    defaultValue: { name: category?.name ?? "", position: numberText(category?.position ?? 0) },
  });
  return (
    <AdminForm form={meta} {...form} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <TextField label="Name" meta={fields.name} type="text" autoComplete="off" />
        <NumberField meta={fields.position} label="Position" hint={POSITION_HINT} />
      </div>
    </AdminForm>
  );
}

export function ProductForm({
  product,
  categories,
  onceKey,
  lastResult,
  ...form
}: Omit<CatalogueFormProps, "id" | "hidden"> & {
  product?: AdminProduct;
  categories: AdminCategory[];
  /** A new product's one-time key: the form posted twice makes one product. */
  onceKey?: string;
}) {
  const [meta, fields] = useSchemaForm(productFormSchema, {
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
      autoReplace: checked(product?.autoReplace, true),
      active: checked(product?.active, true),
      position: numberText(product?.position ?? 0),
      categoryIds: product?.categoryIds ?? [],
    },
  });
  const text = (field: "title" | "label" | "subtitle" | "picture", label: string, hint?: string) => (
    <TextField label={label} meta={fields[field]} type="text" autoComplete="off" hint={hint} />
  );
  return (
    <AdminForm form={meta} {...form} hidden={{ [ONCE_KEY_FIELD]: onceKey }} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {text("title", "Title")}
        {text("label", "Label", "A short line above the title on the card, such as STREAMING.")}
        {text("subtitle", "Subtitle")}
        {text(
          "picture",
          "Picture address",
          "Upload a file below once the product exists; the store serves every picture itself.",
        )}
      </div>
      <TextAreaField meta={fields.description} label="Description" rows={4} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <NumberField meta={fields.minQuantity} label="Minimum quantity" />
        <NumberField meta={fields.maxQuantity} label="Maximum quantity" hint="Empty: up to the stock (999 at most)." />
        <NumberField meta={fields.position} label="Position" hint={POSITION_HINT} />
        <SelectField
          meta={fields.fulfilMode}
          label="Delivery"
          choices={[
            ["auto", "Automatic, from stock"],
            ["manual", "Manual, by staff"],
          ]}
        />
        <NumberField
          meta={fields.replacementLimit}
          label="Replacements per credential"
          hint="How often one delivered credential may be replaced under warranty."
        />
      </div>
      <TextAreaField
        meta={fields.deliveryNotes}
        label="Delivery notes"
        hint="Shown to the buyer with the credentials (or while a manual order waits)."
        rows={3}
      />
      <CheckboxGroup
        meta={fields.categoryIds}
        legend="Categories"
        none="No categories yet."
        choices={categories.map((category) => ({ value: category._id, label: category.name }))}
        boxClassName="flex flex-wrap gap-x-4 gap-y-1"
      />
      <CheckboxField meta={fields.active} label="Visible in the shop" />
      <CheckboxField
        meta={fields.autoReplace}
        label="Fill warranty replacements from stock at once (off: staff review each request)"
      />
    </AdminForm>
  );
}

export function OptionForm({ option, id, lastResult, ...form }: CatalogueFormProps & { option?: AdminOption }) {
  const [meta, fields] = useSchemaForm(optionFormSchema, {
    id,
    lastResult,
    defaultValue: {
      title: option?.title ?? "",
      seats: numberText(option?.seats ?? 1),
      lowStockThreshold: numberText(option?.lowStockThreshold ?? 0),
      active: checked(option?.active, true),
      position: numberText(option?.position ?? 0),
    },
  });
  const seatsLabel = "Buyers per account (seats)";
  return (
    <AdminForm form={meta} {...form} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField label="Option title" meta={fields.title} type="text" autoComplete="off" />
        {option && option.stockRows > 0 ? (
          <Field
            meta={fields.seats}
            label={seatsLabel}
            hint="Fixed: this option has stock. Each imported account holds one row per seat."
          >
            <input type="hidden" name={fields.seats.name} value={String(option.seats)} />
            <input
              id={fields.seats.id}
              value={String(option.seats)}
              readOnly
              aria-readonly="true"
              className={`${inputClass} bg-slate-100`}
            />
          </Field>
        ) : (
          <NumberField
            meta={fields.seats}
            label={seatsLabel}
            hint="1 for a private account; more for a shared one, such as a profile on a family plan."
          />
        )}
        <NumberField
          meta={fields.lowStockThreshold}
          label="Low-stock threshold"
          hint="Listed as low and the operator told when free seats fall under it. 0: never."
        />
        <NumberField meta={fields.position} label="Position" />
      </div>
      <CheckboxField meta={fields.active} label="On sale" />
    </AdminForm>
  );
}

export function DurationForm({ duration, id, lastResult, ...form }: CatalogueFormProps & { duration?: AdminDuration }) {
  const [meta, fields] = useSchemaForm(durationFormSchema, {
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
    <AdminForm form={meta} {...form} className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <TextField label="Warranty title" meta={fields.title} type="text" autoComplete="off" />
        <NumberField meta={fields.days} label="Days" />
        <NumberField meta={fields.price} label="Price (USD)" decimal />
        <NumberField meta={fields.position} label="Position" />
      </div>
    </AdminForm>
  );
}
