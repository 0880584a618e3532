import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { COUPON_FIELDS, CouponForm, couponFormSchema, couponInputOf } from "./coupon-form";
import { couponDiscount, couponUses } from "~/routes/admin.coupons._index/coupon-text";
import { BackLink, CommandForm } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { deactivateCoupon, deleteCoupon, listProductChoices, readCoupon, updateCoupon } from "./coupon.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.coupon.code ?? "Coupon"} | Back office` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const [coupon, products] = await Promise.all([
    readCoupon(context, request, params.couponId ?? ""),
    listProductChoices(context, request),
  ]);
  return { coupon, products };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const couponId = params.couponId ?? "";
  const here = `/admin/coupons/${encodeURIComponent(couponId)}`;
  const formData = await request.formData();
  switch (intentOf(formData, ["save", "deactivate", "delete"])) {
    case "deactivate":
      return toastAnswer(context, here, await deactivateCoupon(context, request, couponId));
    case "delete": {
      const deleted = await deleteCoupon(context, request, couponId);
      return toastAnswer(context, deleted.ok ? "/admin/coupons" : here, deleted);
    }
    case "save":
      return formAction(formData, {
        form: "coupon",
        schema: couponFormSchema,
        fields: COUPON_FIELDS,
        call: (value) => updateCoupon(context, request, couponId, couponInputOf(value)),
        done: (answer) => toastAnswer(context, here, answer),
      });
  }
}

export default function CouponPage() {
  const { coupon, products } = useLoaderData<typeof loader>();
  const lastResult = useFormReply("coupon")?.result;
  const slotsPrize = coupon.source === "slots";
  return (
    <div className="flex flex-col gap-6">
      <BackLink to={slotsPrize ? "/admin/coupons?source=slots" : "/admin/coupons"}>← Coupons</BackLink>
      <AdminHeading title={`Coupon ${coupon.code}`}>
        {couponDiscount(coupon)} off · used <span data-testid="coupon-uses">{couponUses(coupon)}</span> ·{" "}
        {coupon.active ? "active" : "inactive"} · made <AdminTime iso={coupon.createdAt} />
      </AdminHeading>
      {slotsPrize ? (
        <p className="rounded-xl border border-slate-200 bg-white p-4">
          A slots prize for <span className="break-all">{coupon.ownerEmail ?? "a removed account"}</span>: the game sets
          its rules, so it cannot be edited or deleted.
          {coupon.expiresAt && (
            <>
              {" "}
              It expires <AdminTime iso={coupon.expiresAt} />.
            </>
          )}
        </p>
      ) : (
        <section aria-label="Edit the coupon" className="rounded-xl border border-slate-200 bg-white p-4">
          <CouponForm
            coupon={coupon}
            products={products}
            lastResult={lastResult}
            submitLabel="Save coupon"
            intent="save"
          />
        </section>
      )}
      <div className="flex flex-wrap gap-3">
        {coupon.active && <CommandForm intent="deactivate" label="Deactivate" />}
        {!slotsPrize && coupon.usedCount === 0 && <CommandForm intent="delete" label="Delete" danger />}
      </div>
      {!slotsPrize && coupon.usedCount > 0 && (
        <p className="text-sm text-slate-600">A coupon that was used stays for the record: deactivate it instead.</p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
