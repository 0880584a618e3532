import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  AdminHeading,
  AdminTable,
  Pager,
  buttonClass,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { CategoryForm } from "~/components/admin/catalogue-forms";
import { categoryFormSchema, categoryInputOf } from "~/components/admin/catalogue-schemas";
import { ONCE_KEY_FIELD } from "~/components/admin/once-key";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  createCategory,
  deleteCategory,
  listCategories,
  listProducts,
  updateCategory,
} from "~/lib/admin-catalogue.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Catalogue | Back office" }];

const CATALOGUE_PAGE = "/admin/catalogue";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  const [categories, products] = await Promise.all([
    listCategories(context, request),
    listProducts(context, request, { search, page: pageFrom(url) }),
  ]);
  return { categories, products, search, onceKey: newOnceKey() };
}

/** Which form an answer belongs to: several forms share this page, each shows only its own errors. */
type FormAnswer = { form: string; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const categoryId = String(formData.get("categoryId") ?? "");

  if (intent === "category-delete") {
    const answer = await deleteCategory(context, request, categoryId);
    return answer.ok
      ? redirectWithSuccess(context, CATALOGUE_PAGE, answer.message)
      : redirectWithError(context, CATALOGUE_PAGE, answer.message);
  }

  if (intent === "category-create" || intent === "category-update") {
    const form = intent === "category-create" ? "category-new" : `category-${categoryId}`;
    const submission = parseWithZod(formData, { schema: categoryFormSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const input = categoryInputOf(submission.value);
    const answer =
      intent === "category-create"
        ? await createCategory(context, request, input, onceKeyOf(formData))
        : await updateCategory(context, request, categoryId, input);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["name", "position"] });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, CATALOGUE_PAGE, answer.message);
  }

  return redirectWithError(context, CATALOGUE_PAGE, "Unknown change");
}

function useAnswerOf(form: string) {
  const answer = useActionData<typeof action>();
  return answer?.form === form ? answer.result : undefined;
}

const sectionClass = "flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4";
const summaryClass = "cursor-pointer font-semibold text-brand-700";

function CategoryRow({ category }: { category: { _id: string; name: string; position: number; products: number } }) {
  const form = `category-${category._id}`;
  const answer = useAnswerOf(form);
  return (
    <tr>
      <td className={`${td} break-words`}>{category.name}</td>
      <td className={td}>{category.position}</td>
      <td className={td}>{category.products}</td>
      <td className={td}>
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
      </td>
    </tr>
  );
}

export default function CataloguePage() {
  const { categories, products, search, onceKey } = useLoaderData<typeof loader>();
  const newCategoryAnswer = useAnswerOf("category-new");
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

      <section aria-labelledby="categories-heading" className={sectionClass}>
        <h2 id="categories-heading" className="text-lg font-bold">
          Categories
        </h2>
        <AdminTable label="Categories">
          <thead>
            <tr>
              <th className={th}>Name</th>
              <th className={th}>Position</th>
              <th className={th}>Products</th>
              <th className={th}>Change</th>
            </tr>
          </thead>
          <tbody>
            {categories.length === 0 && (
              <tr>
                <td className={td} colSpan={4}>
                  No categories yet.
                </td>
              </tr>
            )}
            {categories.map((category) => (
              <CategoryRow key={JSON.stringify(category)} category={category} />
            ))}
          </tbody>
        </AdminTable>
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
      </section>

      <section aria-labelledby="products-heading" className={sectionClass}>
        <h2 id="products-heading" className="text-lg font-bold">
          Products
        </h2>
        <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor="product-search" className="text-sm font-semibold">
              Title or label
            </label>
            <input
              id="product-search"
              name="search"
              type="search"
              defaultValue={search}
              maxLength={200}
              className={inputClass}
            />
          </div>
          <button type="submit" className={secondaryButtonClass}>
            Search
          </button>
        </Form>
        <AdminTable label="Products">
          <thead>
            <tr>
              <th className={th}>Product</th>
              <th className={th}>Categories</th>
              <th className={th}>Options</th>
              <th className={th}>Free stock</th>
              <th className={th}>Delivery</th>
              <th className={th}>Shop</th>
            </tr>
          </thead>
          <tbody>
            {products.records.length === 0 && (
              <tr>
                <td className={td} colSpan={6}>
                  {search ? "No product matches." : "No products yet."}
                </td>
              </tr>
            )}
            {products.records.map((product) => (
              <tr key={product._id}>
                <td className={`${td} break-words`}>
                  <Link to={`${CATALOGUE_PAGE}/${product._id}`} className="font-semibold text-brand-700 underline">
                    {product.title}
                  </Link>
                  {product.label && <span className="block text-xs text-slate-600">{product.label}</span>}
                </td>
                <td className={td}>{product.categories.join(", ") || "—"}</td>
                <td className={td}>{product.options}</td>
                <td className={td}>{product.fulfilMode === "manual" ? "Manual" : product.freeStock}</td>
                <td className={td}>{product.fulfilMode === "manual" ? "Manual" : "Automatic"}</td>
                <td className={td}>{product.active ? "Visible" : "Hidden"}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
        <Pager
          label="Product pages"
          pager={products.pager}
          href={(page) => pageHref(CATALOGUE_PAGE, { search }, page)}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
