import { type SubmissionResult, getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { z } from "zod";
import {
  COUPON_FORM_MESSAGES,
  type CouponInput,
  couponAmountField,
  couponAmountProblem,
  couponCodeField,
  couponKindField,
  couponProductsField,
  minimumAmountField,
  usesLimitField,
} from "../../../contract/admin-coupons";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { inputClass, listOf } from "~/components/admin/admin-ui";
import { OnceKeyField } from "~/components/admin/once-key";
import { useSchemaForm } from "~/lib/use-schema-form";

/*
 * The coupon form (create and edit), one schema for the browser and the action. Empty limits mean no
 * limit; the expiry is a date and time in UTC (the back office shows every time in UTC).
 */

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export const couponFormSchema = z
  .object({
    code: couponCodeField,
    kind: couponKindField,
    amount: couponAmountField,
    minAmount: minimumAmountField.optional(),
    maxUses: usesLimitField.optional(),
    perCustomerLimit: usesLimitField.optional(),
    expiresAt: z.string().regex(LOCAL_DATE_TIME, COUPON_FORM_MESSAGES.expiry).optional(),
    productIds: couponProductsField.optional(),
    active: z.boolean().optional(),
  })
  .superRefine((coupon, context) => {
    const problem = couponAmountProblem(coupon.kind, coupon.amount);
    if (problem) context.addIssue({ code: z.ZodIssueCode.custom, path: ["amount"], message: problem });
  });

/** The form's fields, under which the API's refusals are shown. */
export const COUPON_FIELDS = [
  "code",
  "kind",
  "amount",
  "minAmount",
  "maxUses",
  "perCustomerLimit",
  "expiresAt",
  "productIds",
] as const;

/** The API's coupon from the form: what is left empty is no limit, an unticked box is inactive. */
export function couponInputOf(form: z.output<typeof couponFormSchema>): CouponInput {
  const expiresAt = form.expiresAt
    ? `${form.expiresAt.length === 16 ? `${form.expiresAt}:00` : form.expiresAt}Z`
    : null;
  return {
    code: form.code,
    kind: form.kind,
    amount: form.amount,
    minAmount: form.minAmount ?? 0,
    maxUses: form.maxUses ?? null,
    perCustomerLimit: form.perCustomerLimit ?? null,
    expiresAt,
    productIds: form.productIds ?? [],
    active: form.active ?? false,
  };
}

export type CouponFormValues = {
  code: string;
  kind: "percent" | "fixed";
  amount: number;
  minAmount: number;
  maxUses: number | null;
  perCustomerLimit: number | null;
  expiresAt: string | null;
  products: { _id: string }[];
  active: boolean;
};

const toDefault = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

export function CouponForm({
  coupon,
  products,
  lastResult,
  submitLabel,
  intent,
  onceKey,
}: {
  coupon?: CouponFormValues;
  products: { _id: string; title: string; active: boolean }[];
  lastResult: SubmissionResult<string[]> | undefined;
  submitLabel: string;
  intent: string;
  /** A new coupon's one-time key: the form posted twice makes one coupon. */
  onceKey?: string;
}) {
  const [form, fields] = useSchemaForm(couponFormSchema, {
    id: "coupon",
    lastResult,
    defaultValue: {
      code: coupon?.code ?? "",
      kind: coupon?.kind ?? "percent",
      amount: toDefault(coupon?.amount),
      minAmount: coupon ? toDefault(coupon.minAmount) : "",
      maxUses: toDefault(coupon?.maxUses),
      perCustomerLimit: toDefault(coupon?.perCustomerLimit),
      // The back office works in UTC: an ISO time's first 16 characters are its UTC date and time.
      expiresAt: coupon?.expiresAt ? coupon.expiresAt.slice(0, 16) : "",
      productIds: coupon?.products.map((product) => product._id) ?? [],
      active: coupon ? (coupon.active ? "on" : undefined) : "on",
    },
  });
  const number = (meta: typeof fields.amount) => {
    const { key, ...props } = getInputProps(meta, { type: "number" });
    return <input key={key} {...props} inputMode="decimal" step="any" className={inputClass} />;
  };
  const { key: kindKey, ...kindProps } = getSelectProps(fields.kind);
  const { key: expiryKey, ...expiryProps } = getInputProps(fields.expiresAt, { type: "datetime-local" });
  const { key: activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });
  const chosen = new Set(listOf(fields.productIds.initialValue));
  const labelled = (
    meta: { id: string; errorId: string; errors?: string[] },
    label: string,
    control: JSX.Element,
    hint?: string,
  ) => (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      {control}
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );

  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <OnceKeyField value={onceKey} />
      <FormErrors form={form} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <TextField
          label="Code"
          meta={fields.code}
          type="text"
          autoComplete="off"
          hint="Customers type it in any letter case."
        />
        {labelled(
          fields.kind,
          "Kind",
          <select key={kindKey} {...kindProps} className={inputClass}>
            <option value="percent">Percent off</option>
            <option value="fixed">Fixed amount off (USD)</option>
          </select>,
        )}
        {labelled(fields.amount, "Discount", number(fields.amount), "Percent (1–100), or USD for a fixed amount.")}
        {labelled(fields.minAmount, "Minimum cart total (USD)", number(fields.minAmount), "Empty: no minimum.")}
        {labelled(fields.maxUses, "Total uses", number(fields.maxUses), "Empty: no limit.")}
        {labelled(fields.perCustomerLimit, "Uses per customer", number(fields.perCustomerLimit), "Empty: no limit.")}
        {labelled(
          fields.expiresAt,
          "Expires (UTC)",
          <input key={expiryKey} {...expiryProps} className={inputClass} />,
          "Empty: never.",
        )}
      </div>
      <fieldset className="flex min-w-0 flex-col gap-1">
        <legend className="text-sm font-semibold">Applies to</legend>
        <p className="text-xs text-slate-600">Tick none for every product. Only the ticked products are discounted.</p>
        <div className="flex max-h-56 flex-col gap-1 overflow-y-auto rounded-md border border-slate-300 p-2">
          {products.length === 0 && <p className="text-sm text-slate-600">No products yet.</p>}
          {products.map((product) => (
            <label key={product._id} className="flex items-start gap-2 text-sm break-words">
              <input
                type="checkbox"
                name={fields.productIds.name}
                value={product._id}
                defaultChecked={chosen.has(product._id)}
                className="mt-1"
              />
              <span>
                {product.title}
                {!product.active && <span className="text-slate-500"> (hidden)</span>}
              </span>
            </label>
          ))}
        </div>
        <ErrorList id={fields.productIds.errorId} errors={fields.productIds.errors} />
      </fieldset>
      <label className="flex items-center gap-2 font-semibold">
        <input key={activeKey} {...activeProps} />
        Active (applies at checkout)
      </label>
      <div>
        <SubmitButton intent={intent} pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
