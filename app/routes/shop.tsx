import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  Outlet,
  type ShouldRevalidateFunction,
  useLoaderData,
  useNavigation,
  useSubmit,
} from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ErrorScreen } from "~/components/error-screens";
import { ProductCard, type ProductCardData } from "~/components/product-card";
import { shopSearch } from "~/components/shop-search";
import { listCategories, listProducts, type Product } from "~/lib/catalogue.server";
import { pageMeta } from "~/components/legal/page-meta";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Shop | Store",
    description:
      "Browse streaming, music, gaming, AI and software subscriptions by category, compare plans and warranty lengths, and check stock before you buy.",
  });

/** The "someone just bought" toasts are JavaScript-only and start late: their code loads after hydration. */
const RecentPurchases = lazy(() => import("~/components/recent-purchases"));

/** Cards on a first screen (two rows on a phone, one on a desktop): their pictures are not lazy. */
const FIRST_SCREEN_CARDS = 4;
/**
 * Cards per category on the whole shop (three rows on a desktop, six on a phone); "Show all" opens the category.
 * At 300 products the page stays a few screens long, and its HTML and data stay small (issue 18).
 */
const CARDS_PER_CATEGORY = 12;

type ProductGroup = { id: string; name: string; products: ProductCardData[]; total: number };

function toCard(product: Product): ProductCardData {
  const { _id, title, label, picture, totalStock, minPrice } = product;
  return { _id, title, label, picture, totalStock, minPrice };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [products, allCategories] = await Promise.all([
    listProducts(context, request),
    listCategories(context, request),
  ]);
  // The filter offers only categories with a product to show: choosing one never gives an empty shop.
  const categories = allCategories.filter((candidate) =>
    products.some((product) => product.categoryIds.includes(candidate._id)),
  );
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const requestedCategory = url.searchParams.get("category") ?? "";
  const category = categories.some((candidate) => candidate._id === requestedCategory) ? requestedCategory : "";

  const needle = query.toLowerCase();
  const matching = products.filter((product) => product.title.toLowerCase().includes(needle));
  // A product in several categories appears under each of them.
  // One category shows whole; the whole shop shows the first cards of each, with a link to the rest.
  const shown = (inGroup: Product[]) => (category ? inGroup : inGroup.slice(0, CARDS_PER_CATEGORY)).map(toCard);
  const groups: ProductGroup[] = categories
    .filter((candidate) => !category || candidate._id === category)
    .map((candidate) => {
      const inGroup = matching.filter((product) => product.categoryIds.includes(candidate._id));
      return { id: candidate._id, name: candidate.name, products: shown(inGroup), total: inGroup.length };
    });
  if (!category) {
    const known = new Set(categories.map((candidate) => candidate._id));
    const uncategorized = matching.filter((product) => !product.categoryIds.some((id) => known.has(id)));
    // Few, and no category to open: shown whole.
    groups.push({ id: "other", name: "Other", products: uncategorized.map(toCard), total: uncategorized.length });
  }

  return {
    categories,
    groups: groups.filter((group) => group.products.length > 0),
    query,
    category,
  };
}

/** Opening the cart panel or the product modal must not reload the catalogue. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) => {
  const sameShopView =
    currentUrl.searchParams.get("q") === nextUrl.searchParams.get("q") &&
    currentUrl.searchParams.get("category") === nextUrl.searchParams.get("category");
  return sameShopView ? false : defaultShouldRevalidate;
};

export default function Shop() {
  const { categories, groups, query, category } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  // A new search or category is on its way: dim the old results rather than leave them looking current.
  const searching =
    navigation.state === "loading" && navigation.location.pathname === "/shop" && !!navigation.formMethod;
  const search = shopSearch(new URLSearchParams({ q: query, category }));

  return (
    <>
      <section className="bg-gradient-to-br from-brand-700 to-brand-500 text-white">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h1 className="text-3xl font-extrabold sm:text-4xl">Shop</h1>
          <p className="mt-2 max-w-2xl text-brand-50">
            Premium accounts and subscriptions at the lowest prices, delivered instantly and covered by our warranty.
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 py-8">
        <div className="mb-8 flex items-end gap-3">
          <Form method="get" role="search" className="flex flex-1 flex-wrap items-end gap-3" preventScrollReset>
            <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
              Search products
              <input
                type="search"
                name="q"
                defaultValue={query}
                maxLength={100}
                placeholder="Search by title"
                className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-base font-normal"
              />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Category
              <select
                name="category"
                defaultValue={category}
                onChange={(event) => hydrated && submit(event.currentTarget.form, { preventScrollReset: true })}
                className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-base font-normal"
              >
                <option value="">All categories</option>
                {categories.map((candidate) => (
                  <option key={candidate._id} value={candidate._id}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="submit"
              className="rounded-lg bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700"
            >
              Search
            </button>
          </Form>
          {hydrated && (
            <Suspense fallback={null}>
              <RecentPurchases />
            </Suspense>
          )}
        </div>

        <div aria-busy={searching} className={searching ? "opacity-50 transition-opacity" : undefined}>
          {groups.length === 0 ? (
            <p className="py-12 text-center text-slate-600">No products match your search.</p>
          ) : (
            groups.map((group, groupIndex) => (
              <section key={group.id} aria-labelledby={`category-${group.id}`} className="mb-10">
                <h2 id={`category-${group.id}`} className="mb-4 text-2xl font-bold">
                  {group.name}
                </h2>
                <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
                  {group.products.map((product, index) => (
                    <li key={product._id}>
                      <ProductCard
                        product={product}
                        href={`/shop/${product._id}${search}`}
                        eager={groupIndex === 0 && index < FIRST_SCREEN_CARDS}
                      />
                    </li>
                  ))}
                </ul>
                {group.total > group.products.length && (
                  <p className="mt-4">
                    <Link
                      to={`/shop${shopSearch(new URLSearchParams({ q: query, category: group.id }))}`}
                      className="font-semibold text-brand-700 underline"
                    >
                      Show all {group.total} in {group.name}
                    </Link>
                  </p>
                )}
              </section>
            ))
          )}
        </div>
      </div>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <ErrorScreen
      title="Something went wrong loading the shop."
      detail="Failed to load shop data. Please refresh the page."
    />
  );
}
