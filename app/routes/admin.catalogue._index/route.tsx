import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, buttonClass, secondaryButtonClass } from "~/components/admin/admin-ui";
import { CategoryForm } from "~/components/admin/catalogue-forms";
import { PageSection } from "~/components/admin/detail-ui";
import { categoryFormSchema, categoryInputOf } from "~/components/admin/catalogue-schemas";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type AdminCategory,
  type AdminProductRow,
  createCategory,
  deleteCategory,
  listCategories,
  listProducts,
  updateCategory,
} from "~/lib/admin-catalogue.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { listQuery, listText } from "~/lib/list-query";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Catalogue | Back office" }];

const CATALOGUE_PAGE = "/admin/catalogue";
const querySchema = z.object({ search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const query = listQuery(new URL(request.url), querySchema);
  const [categories, products] = await Promise.all([
    listCategories(context, request),
    listProducts(context, request, query),
  ]);
  return { categories, products, query, onceKey: newOnceKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const formData = await request.formData();
  const intent = intentOf(formData, ["category-create", "category-update", "category-delete"]);
  const categoryId = String(formData.get("categoryId") ?? "");
  if (intent === "category-delete") {
    return toastAnswer(context, CATALOGUE_PAGE, await deleteCategory(context, request, categoryId));
  }
  const creating = intent === "category-create";
  return formAction(formData, {
    form: creating ? "category-new" : `category-${categoryId}`,
    schema: categoryFormSchema,
    fields: ["name", "position"],
    call: (value) =>
      creating
        ? createCategory(context, request, categoryInputOf(value), onceKeyOf(formData))
        : updateCategory(context, request, categoryId, categoryInputOf(value)),
    done: (answer) => redirectWithSuccess(context, CATALOGUE_PAGE, answer.message),
  });
}

const summaryClass = "cursor-pointer font-semibold text-brand-700";

const manual = (product: AdminProductRow) => product.fulfilMode === "manual";

function ProductCell({ product }: { product: AdminProductRow }) {
  return (
    <>
      <Link to={`${CATALOGUE_PAGE}/${product._id}`} className="font-semibold text-brand-700 underline">
        {product.title}
      </Link>
      {product.label && <span className="block text-xs text-slate-600">{product.label}</span>}
    </>
  );
}

function CategoryEdit({ category }: { category: AdminCategory }) {
  const form = `category-${category._id}`;
  const answer = useFormReply(form)?.result;
  return (
    <details open={!!answer} className="min-w-64">
      <summary className={summaryClass}>Edit</summary>
      <div className="mt-2 flex flex-col gap-3">
        <CategoryForm
          id={form}
          category={category}
          lastResult={answer}
          intent="category-update"
          submitLabel="Save category"
          hidden={{ categoryId: category._id }}
        />
        <Form method="post">
          <input type="hidden" name="categoryId" value={category._id} />
          <button type="submit" name="intent" value="category-delete" className={secondaryButtonClass}>
            Delete category
          </button>
          <p className="mt-1 text-xs text-slate-600">Its products stay, in their other categories.</p>
        </Form>
      </div>
    </details>
  );
}

export default function CataloguePage() {
  const { categories, products, query, onceKey } = useLoaderData<typeof loader>();
  const newCategoryAnswer = useFormReply("category-new")?.result;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <AdminHeading title="Catalogue">
          Categories, products, their options and warranty prices. Changes show in the shop at once.
        </AdminHeading>
        {/* Creation first: the product list below runs to many screens. */}
        <Link to={`${CATALOGUE_PAGE}/new`} className={buttonClass}>
          New product
        </Link>
      </div>

      <PageSection title="Categories" card>
        <AdminList
          label="Categories"
          pathname={CATALOGUE_PAGE}
          empty={["", "No categories yet."]}
          list={{ records: categories }}
          columns={[
            { header: "Name", className: "break-words", cell: (category) => category.name },
            { header: "Position", cell: (category) => category.position },
            { header: "Products", cell: (category) => category.products },
            // Keyed by its values: a saved change closes the form.
            {
              header: "Change",
              cell: (category) => <CategoryEdit key={JSON.stringify(category)} category={category} />,
            },
          ]}
        />
        <details key={categories.length} open={!!newCategoryAnswer}>
          <summary className={summaryClass}>New category</summary>
          <div className="mt-2">
            <CategoryForm
              id="category-new"
              lastResult={newCategoryAnswer}
              intent="category-create"
              submitLabel="Create category"
              hidden={{ [ONCE_KEY_FIELD]: onceKey }}
            />
          </div>
        </details>
      </PageSection>

      <PageSection title="Products" card>
        <AdminList
          label="Products"
          pathname={CATALOGUE_PAGE}
          query={query}
          filters={[{ name: "search", label: "Title or label" }]}
          empty={["No product matches.", "No products yet."]}
          list={products}
          columns={[
            { header: "Product", className: "break-words", cell: (product) => <ProductCell product={product} /> },
            { header: "Categories", cell: (product) => product.categories.join(", ") || "—" },
            { header: "Options", cell: (product) => product.options },
            { header: "Free stock", cell: (product) => (manual(product) ? "Manual" : product.freeStock) },
            { header: "Delivery", cell: (product) => (manual(product) ? "Manual" : "Automatic") },
            { header: "Shop", cell: (product) => (product.active ? "Visible" : "Hidden") },
          ]}
        />
      </PageSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
