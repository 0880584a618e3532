import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSubmit } from "@remix-run/react";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { STAFF_AUTHOR } from "../../contract/browser/ticket";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { StarsShown } from "~/components/feedback/stars-shown";
import { pageMeta } from "~/components/legal/page-meta";
import { cleanProductTitle } from "~/components/product/description";
import { listProducts } from "~/lib/catalogue.server";
import { listPublicFeedback } from "~/lib/feedback.server";
import { Pager } from "~/components/pager";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Customer Feedback | Store",
    description:
      "What customers say about the subscriptions they bought: star ratings and reviews from verified buyers.",
  });

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** The list's state lives in the URL (?product=&page=), so filtering and paging are links and a GET form. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("product") ?? "";
  // A malformed id names no product: the page shows everything rather than an error.
  const productId = PUBLIC_ID_PATTERN.test(asked) ? asked : "";
  const page = Math.min(Math.max(1, Math.trunc(Number(url.searchParams.get("page"))) || 1), 100_000);
  const [feedback, products] = await Promise.all([
    listPublicFeedback(context, { page, productId }),
    listProducts(context, request),
  ]);
  const choices = products
    .filter((product) => product.rating.count > 0 || product._id === productId)
    .map((product) => ({ _id: product._id, title: cleanProductTitle(product.title), rating: product.rating }))
    .sort((a, b) => a.title.localeCompare(b.title));
  return { feedback, choices, productId };
}

function pageHref(productId: string, page: number): string {
  const query = new URLSearchParams();
  if (productId) query.set("product", productId);
  if (page > 1) query.set("page", String(page));
  return query.size ? `/feedback?${query}` : "/feedback";
}

function ProductFilter({ choices, productId }: { choices: { _id: string; title: string }[]; productId: string }) {
  const submit = useSubmit();
  return (
    <Form method="get" role="search" className="flex flex-wrap items-center gap-2">
      <label htmlFor="feedback-product" className="sr-only">
        Filter Product
      </label>
      <select
        id="feedback-product"
        name="product"
        defaultValue={productId}
        key={productId}
        // With JavaScript the choice applies at once; without it, the Filter button sends the form.
        onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        className="min-w-0 max-w-full flex-1 rounded-md border border-slate-300 px-3 py-2 sm:flex-none"
      >
        <option value="">Filter Product</option>
        {choices.map((choice) => (
          <option key={choice._id} value={choice._id}>
            {choice.title}
          </option>
        ))}
      </select>
      <button type="submit" className="rounded-lg border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-100">
        Filter
      </button>
    </Form>
  );
}

export default function FeedbackPage() {
  const { feedback, choices, productId } = useLoaderData<typeof loader>();
  const { records, pager } = feedback;
  const chosen = choices.find((choice) => choice._id === productId);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">What Customers Say</h1>
          <p className="mt-2 text-slate-600">Ratings and reviews from customers who received what they bought.</p>
        </div>
        <ProductFilter choices={choices} productId={productId} />
      </header>

      {chosen && chosen.rating.count > 0 && (
        <p className="flex flex-wrap items-center gap-2 text-slate-700" data-testid="feedback-summary">
          <StarsShown stars={Math.round(chosen.rating.average)} />
          <span>
            {chosen.rating.average.toFixed(1)} out of 5 from {chosen.rating.count}{" "}
            {chosen.rating.count === 1 ? "review" : "reviews"} of {chosen.title}
          </span>
          <Link to="/feedback" className="font-semibold text-brand-700 underline">
            Show all products
          </Link>
        </p>
      )}

      {records.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600">
          {pager.page > 1 ? "There is no feedback on this page." : "No feedback yet."}{" "}
          {pager.page > 1 && (
            <Link to={pageHref(productId, 1)} className="font-semibold text-brand-700 underline">
              Back to the first page
            </Link>
          )}
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Feedback">
          {records.map((entry) => (
            <li
              key={entry._id}
              className="flex min-w-0 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              data-testid="feedback-card"
            >
              <StarsShown stars={entry.stars} />
              <p className="flex-1 whitespace-pre-line break-words text-slate-800">{entry.message}</p>
              <div className="flex flex-col gap-0.5 text-sm">
                <Link
                  to={`/shop/${entry.product._id}`}
                  className="break-words font-semibold text-brand-700 underline"
                  data-testid="feedback-product"
                >
                  {cleanProductTitle(entry.product.title)}
                </Link>
                <time dateTime={entry.updatedAt} className="text-slate-500">
                  {dateFormat.format(new Date(entry.updatedAt))}
                </time>
              </div>
              {entry.reply && (
                <div className="rounded-lg bg-slate-100 p-3 text-sm" data-testid="feedback-reply">
                  <p className="font-semibold">{STAFF_AUTHOR}</p>
                  <p className="whitespace-pre-line break-words text-slate-800">{entry.reply.message}</p>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      <Pager label="Feedback pages" pager={pager} href={(page) => pageHref(productId, page)} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
