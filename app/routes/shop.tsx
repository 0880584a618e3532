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
import { ProductCard } from "~/components/product-card";
import { shopSearch } from "~/components/shop-search";
import { listShopShelves } from "~/lib/catalogue.server";
import { pageMeta } from "~/components/legal/page-meta";
import { redirectWithError } from "~/lib/toast.server";

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

const UNREADABLE_QUERY = "The search or category held characters the shop cannot read, so the whole shop is shown.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  // The API keeps to categories with a product to show (choosing one never gives an empty shop) and answers
  // the one it applied: an unknown one shows every shelf.
  const shelves = await listShopShelves(context, request, {
    search: query,
    category: (url.searchParams.get("category") ?? "").slice(0, 64),
    // One category shows whole; the whole shop shows the first cards of each, with a link to the rest.
    perShelf: CARDS_PER_CATEGORY,
  }).catch(async (refused: unknown) => {
    // The API refuses a search or category holding a control character (400): the visitor's address, not our
    // failure. The same page without the query, with the reason, as the shop says any other message.
    if (!(refused instanceof Response) || refused.status !== 400) throw refused;
    throw await redirectWithError(context, url.pathname, UNREADABLE_QUERY);
  });
  return {
    categories: shelves.categories,
    groups: shelves.shelves.map(({ _id, name, products, total }) => ({ id: _id, name, products, total })),
    query,
    category: shelves.category,
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
