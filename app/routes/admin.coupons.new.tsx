import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { COUPON_FIELDS, CouponForm, couponFormSchema, couponInputOf } from "~/components/admin/coupon-form";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { createCoupon, listProductChoices } from "~/lib/admin-coupons.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "New coupon | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "coupons");
  return { products: await listProductChoices(context, request), onceKey: newOnceKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: couponFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await createCoupon(context, request, couponInputOf(submission.value), onceKeyOf(formData));
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: COUPON_FIELDS });
    return data({ result }, { status });
  }
  return redirectWithSuccess(context, "/admin/coupons", answer.message);
}

export default function NewCouponPage() {
  const { products, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/coupons" className="font-semibold text-brand-700 underline">
          ← Coupons
        </Link>
      </p>
      <AdminHeading title="New coupon" />
      <section className="rounded-xl border border-slate-200 bg-white p-4">
        <CouponForm
          products={products}
          lastResult={useActionData<typeof action>()?.result}
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
