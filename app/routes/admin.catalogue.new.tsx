import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { ProductForm } from "~/components/admin/catalogue-forms";
import { PRODUCT_FIELDS, productFormSchema, productInputOf } from "~/components/admin/catalogue-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { createProduct, listCategories } from "~/lib/admin-catalogue.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "New product | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  return { categories: await listCategories(context, request), onceKey: newOnceKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: productFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await createProduct(context, request, productInputOf(submission.value), onceKeyOf(formData));
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: PRODUCT_FIELDS });
    return data({ result }, { status });
  }
  // Straight on to the product's options and durations.
  return redirectWithSuccess(context, `/admin/catalogue/${answer.payload._id}`, answer.message);
}

export default function NewProductPage() {
  const { categories, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/catalogue" className="font-semibold text-brand-700 underline">
          ← Catalogue
        </Link>
      </p>
      <AdminHeading title="New product">
        Options and warranty prices come next, on the product&apos;s page.
      </AdminHeading>
      <section className="rounded-xl border border-slate-200 bg-white p-4">
        <ProductForm
          categories={categories}
          lastResult={useActionData<typeof action>()?.result}
          intent="product-create"
          submitLabel="Create product"
          onceKey={onceKey}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
