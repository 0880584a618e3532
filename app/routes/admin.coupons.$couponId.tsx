import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { COUPON_FIELDS, CouponForm, couponFormSchema, couponInputOf } from "~/components/admin/coupon-form";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  deactivateCoupon,
  deleteCoupon,
  listProductChoices,
  readCoupon,
  updateCoupon,
} from "~/lib/admin-coupons.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { couponDiscount, couponUses } from "~/components/admin/coupon-text";

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
  const intent = formData.get("intent");
  if (intent === "deactivate") {
    const answer = await deactivateCoupon(context, request, couponId);
    return answer.ok
      ? redirectWithSuccess(context, here, answer.message)
      : redirectWithError(context, here, answer.message);
  }
  if (intent === "delete") {
    const answer = await deleteCoupon(context, request, couponId);
    return answer.ok
      ? redirectWithSuccess(context, "/admin/coupons", answer.message)
      : redirectWithError(context, here, answer.message);
  }
  const submission = parseWithZod(formData, { schema: couponFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await updateCoupon(context, request, couponId, couponInputOf(submission.value));
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: COUPON_FIELDS });
    return data({ result }, { status });
  }
  return redirectWithSuccess(context, here, answer.message);
}

export default function CouponPage() {
  const { coupon, products } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const slotsPrize = coupon.source === "slots";
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link
          to={slotsPrize ? "/admin/coupons?source=slots" : "/admin/coupons"}
          className="font-semibold text-brand-700 underline"
        >
          ← Coupons
        </Link>
      </p>
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
        {coupon.active && (
          <Form method="post">
            <button type="submit" name="intent" value="deactivate" className={secondaryButtonClass}>
              Deactivate
            </button>
          </Form>
        )}
        {!slotsPrize && coupon.usedCount === 0 && (
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value="delete"
              className="rounded-lg border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50"
            >
              Delete
            </button>
          </Form>
        )}
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
