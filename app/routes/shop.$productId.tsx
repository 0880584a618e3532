import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  type ShouldRevalidateFunction,
  useLoaderData,
  useLocation,
  useRouteError,
} from "@remix-run/react";
import { RouteDialog } from "~/components/dialog";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { StarsShown } from "~/components/feedback/stars-shown";
import { cleanProductTitle } from "~/components/product/description";
import { type ProductChoice, ProductDetails } from "~/components/product-details";
import { quantityBounds } from "~/lib/cart-client";
import { shopSearch } from "~/components/shop-search";
import { readProductPage } from "~/lib/catalogue.server";
import { descriptionFrom, pageMeta } from "~/components/legal/page-meta";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { product, options } = await readProductPage(context, request, params.productId ?? "");
  const url = new URL(request.url);
  // ?option= from links; ?optionId=, &duration= and &quantity= from the product form sent as a GET without JS.
  const requestedId = url.searchParams.get("optionId") ?? url.searchParams.get("option");
  const requested = options.find((option) => option._id === requestedId);
  // Without a choice, preselect the first plan that can be bought, so its durations show at once.
  const initialOption =
    requested ?? options.find((option) => option.availableStock >= product.minQuantity) ?? options[0];
  const duration = Number(url.searchParams.get("duration"));
  const quantity = Number.parseInt(url.searchParams.get("quantity") ?? "", 10);
  const bounds = quantityBounds(product, initialOption?.availableStock ?? 0);
  const initial: ProductChoice = {
    optionId: initialOption?._id,
    duration: initialOption?.subOptions.some((subOption) => subOption.duration === duration) ? duration : undefined,
    quantity: Number.isNaN(quantity) ? bounds.min : Math.min(Math.max(quantity, bounds.min), bounds.max),
  };
  const { _id, title, picture, description, minQuantity, maxQuantity } = product;
  return {
    product: { _id, title, picture, description, minQuantity, maxQuantity },
    rating: product.rating,
    options,
    initial,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) {
    return pageMeta({
      title: "Product not found | Store",
      description: "This product is no longer in the store. Browse the shop for similar plans.",
    });
  }
  const title = cleanProductTitle(data.product.title);
  return pageMeta({
    title: `${title} | Store`,
    description: descriptionFrom(
      data.product.description,
      `Buy ${title} at the store: delivered instantly, with warranty replacements and 24/7 support.`,
    ),
  });
};

/** The cart panel opening over the modal must not refetch the product. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const copy = new URL(url);
    copy.searchParams.delete("cart");
    return copy.pathname + copy.search;
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
};

function useShopLinks() {
  const location = useLocation();
  const here = location.pathname + location.search;
  const params = new URLSearchParams(location.search);
  const kept = Object.fromEntries(
    ["q", "category"].flatMap((name) => (params.get(name) ? [[name, params.get(name) ?? ""]] : [])),
  );
  return {
    kept,
    here,
    closeHref: `/shop${shopSearch(params)}`,
    afterAddHref: `/shop${shopSearch(params, { cart: "open" })}`,
  };
}

/** The product's average rating and how many gave one, linking to their feedback. */
function RatingLine({ productId, rating }: { productId: string; rating: { average: number; count: number } }) {
  if (rating.count === 0) return null;
  return (
    <p className="mb-3 flex flex-wrap items-center gap-x-2 text-sm text-slate-700" data-testid="product-rating">
      <StarsShown stars={Math.round(rating.average)} className="text-base" />
      <span>
        {rating.average.toFixed(1)} out of 5 ({rating.count} {rating.count === 1 ? "review" : "reviews"})
      </span>
      <Link
        to={`/feedback?${new URLSearchParams({ product: productId })}`}
        className="font-semibold text-brand-700 underline"
      >
        Read the feedback
      </Link>
    </p>
  );
}

export default function ProductModal() {
  const { product, rating, options, initial } = useLoaderData<typeof loader>();
  const { kept, here, closeHref, afterAddHref } = useShopLinks();
  return (
    <RouteDialog title={cleanProductTitle(product.title)} closeHref={closeHref} closeLabel="Close product">
      <RatingLine productId={product._id} rating={rating} />
      <ProductDetails
        key={product._id}
        product={product}
        options={options}
        initial={initial}
        keptSearch={kept}
        redirectTo={afterAddHref}
        errorRedirectTo={here}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { closeHref } = useShopLinks();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <RouteDialog title="Product not found" closeHref={closeHref} closeLabel="Close">
        <p className="mb-4 text-slate-600">This product does not exist or is no longer sold.</p>
        <Link to={closeHref} className="font-semibold text-brand-700 underline">
          Back to the shop
        </Link>
      </RouteDialog>
    );
  }
  return (
    <GeneralErrorBoundary
      title="Something went wrong loading the shop."
      detail="Failed to load shop data. Please refresh the page."
    />
  );
}
