import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import {
  COUPON_FIELDS,
  CouponForm,
  couponFormSchema,
  couponInputOf,
} from "~/routes/admin.coupons.$couponId/coupon-form";
import { BackLink } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { listProductChoices } from "~/routes/admin.coupons.$couponId/coupon.server";
import { createCoupon } from "./new-coupon.server";
import { formAction, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";

export const meta: MetaFunction = () => [{ title: "New coupon | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "coupons");
  return { products: await listProductChoices(context, request), onceKey: newOnceKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const formData = await request.formData();
  return formAction(formData, {
    form: "coupon",
    schema: couponFormSchema,
    fields: COUPON_FIELDS,
    call: (value) => createCoupon(context, request, couponInputOf(value), onceKeyOf(formData)),
    done: (answer) => toastAnswer(context, "/admin/coupons", answer),
  });
}

export default function NewCouponPage() {
  const { products, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <BackLink to="/admin/coupons">← Coupons</BackLink>
      <AdminHeading title="New coupon" />
      <section className="rounded-xl border border-slate-200 bg-white p-4">
        <CouponForm
          products={products}
          lastResult={useFormReply("coupon")?.result}
          submitLabel="Create coupon"
          intent="create"
          onceKey={onceKey}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
