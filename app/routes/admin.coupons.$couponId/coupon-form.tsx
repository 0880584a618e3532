import type { SubmissionResult } from "@conform-to/react";
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
import { TextField } from "~/components/account/form-fields";
import {
  AdminForm,
  CheckboxField,
  CheckboxGroup,
  DateTimeField,
  NumberField,
  SelectField,
} from "~/components/admin/admin-fields";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
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
const NO_LIMIT = "Empty: no limit.";

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
  const amount = (field: "amount" | "minAmount" | "maxUses" | "perCustomerLimit", label: string, hint: string) => (
    <NumberField meta={fields[field]} label={label} hint={hint} decimal step="any" />
  );
  return (
    <AdminForm
      form={form}
      intent={intent}
      submitLabel={submitLabel}
      hidden={{ [ONCE_KEY_FIELD]: onceKey }}
      className="flex flex-col gap-3"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <TextField
          label="Code"
          meta={fields.code}
          type="text"
          autoComplete="off"
          hint="Customers type it in any letter case."
        />
        <SelectField
          meta={fields.kind}
          label="Kind"
          choices={[
            ["percent", "Percent off"],
            ["fixed", "Fixed amount off (USD)"],
          ]}
        />
        {amount("amount", "Discount", "Percent (1–100), or USD for a fixed amount.")}
        {amount("minAmount", "Minimum cart total (USD)", "Empty: no minimum.")}
        {amount("maxUses", "Total uses", NO_LIMIT)}
        {amount("perCustomerLimit", "Uses per customer", NO_LIMIT)}
        <DateTimeField meta={fields.expiresAt} label="Expires (UTC)" hint="Empty: never." />
      </div>
      <CheckboxGroup
        meta={fields.productIds}
        legend="Applies to"
        hint="Tick none for every product. Only the ticked products are discounted."
        none="No products yet."
        boxClassName="flex max-h-56 flex-col gap-1 overflow-y-auto"
        choices={products.map((product) => ({
          value: product._id,
          label: (
            <>
              {product.title}
              {!product.active && <span className="text-slate-500"> (hidden)</span>}
            </>
          ),
        }))}
      />
      <CheckboxField meta={fields.active} label="Active (applies at checkout)" />
    </AdminForm>
  );
}
