import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { ProductForm } from "~/components/admin/catalogue-forms";
import { PRODUCT_FIELDS, productFormSchema, productInputOf } from "~/components/admin/catalogue-schemas";
import { BackLink } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { createProduct, listCategories } from "~/lib/admin-catalogue.server";
import { formAction } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
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
  return formAction(formData, {
    form: "product-new",
    schema: productFormSchema,
    fields: PRODUCT_FIELDS,
    call: (value) => createProduct(context, request, productInputOf(value), onceKeyOf(formData)),
    // Straight on to the product's options and durations.
    done: (answer) => redirectWithSuccess(context, `/admin/catalogue/${answer.payload._id}`, answer.message),
  });
}

export default function NewProductPage() {
  const { categories, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <BackLink to="/admin/catalogue">← Catalogue</BackLink>
      <AdminHeading title="New product">
        Options and warranty prices come next, on the product&apos;s page.
      </AdminHeading>
      <section className="rounded-xl border border-slate-200 bg-white p-4">
        <ProductForm
          categories={categories}
          lastResult={useFormReply("product-new")?.result}
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
