import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { lazy, Suspense, useEffect } from "react";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { FEEDBACK_INTENT } from "~/lib/feedback-rules";
import type { FeedbackAccess } from "~/lib/feedback-rules";
import { intentOf } from "~/lib/form-action.server";
import { loadFeedbackAccess, orderFeedbackAction } from "~/lib/order-feedback.server";
import {
  type OrderPanel,
  type OrderRequestsData,
  loadOrderRequests,
  orderRequestAction,
  panelFrom,
} from "~/lib/order-requests.server";
import { refreshAttempt, refreshDelaySeconds } from "~/components/order/pending-refresh";
import type { NoScriptRefreshTarget } from "~/components/no-script-refresh";
import type { RouteHandle } from "~/root";
import { type Order, readOrder } from "~/lib/orders.server";
import { pageMeta } from "~/components/legal/page-meta";
import { PageToast } from "~/components/page-toast";

export const ORDER_NOT_FOUND = "Order Not Found!";
/** While an order waits for its payment webhook, an open page looks again this often (JS only). */
const PENDING_POLL_MS = 10_000;
const ORDER_ID_MAX_LENGTH = 64;

/** The order's view (credentials, feedback, requests) loads once there is an order to show (ADR 032). */
const loadOrderDetails = () => import("~/components/order/order-details");
const OrderDetails = lazy(loadOrderDetails);

export const meta: MetaFunction = () => [
  ...pageMeta({
    title: "Find Order | Store",
    description:
      "Look up an order by the id from your email to see its status and copy the delivered account credentials.",
  }),
  // The address can carry an order id, which is all it takes to read the order.
  { name: "robots", content: "noindex" },
];

// Credentials must not be kept by shared caches or the browser's back-forward cache of another user.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type LookupResult = {
  id: string;
  order: Order | null;
  error: string | null;
  /** While the order is pending: the next reload without JavaScript, or null once it gave up. */
  noScriptRefresh: NoScriptRefreshTarget | null;
  /** Replacements and other requests (ADR 020): who may ask, the histories, the open panel. */
  requests: OrderRequestsData | null;
  panel: OrderPanel | null;
  /** Who may leave feedback on the delivered lines (ADR 021); null when none can be rated. */
  feedback: FeedbackAccess | null;
};

export const handle: RouteHandle = {
  noScriptRefresh: (data) => (data as LookupResult | undefined)?.noScriptRefresh ?? null,
};

const findOrderPath = (search: Record<string, string>) => `/find-order?${new URLSearchParams(search)}`;

function nextNoScriptRefresh(id: string, attempt: number): NoScriptRefreshTarget | null {
  const seconds = refreshDelaySeconds(attempt);
  return seconds === null ? null : { seconds, url: findOrderPath({ id, refresh: String(attempt + 1) }) };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const id = (url.searchParams.get("id") ?? "").trim().slice(0, ORDER_ID_MAX_LENGTH);
  const failed = (error: string | null, status?: number) =>
    data<LookupResult>(
      { id, order: null, error, noScriptRefresh: null, requests: null, panel: null, feedback: null },
      status ? { status } : undefined,
    );
  if (!id) return failed(null);
  const result = await readOrder(context, request, id);
  if (result.ok) {
    const order = result.payload;
    const noScriptRefresh =
      order.status === "pending" ? nextNoScriptRefresh(id, refreshAttempt(url.searchParams.get("refresh"))) : null;
    const panel = panelFrom(url.searchParams, order);
    const [requests, feedback] = await Promise.all([
      loadOrderRequests(context, request, order, panel),
      loadFeedbackAccess(context, request, order),
    ]);
    return data<LookupResult>({ id, order, error: null, noScriptRefresh, requests, panel, feedback });
  }
  if (result.status === 429) return failed(result.message, 429);
  return failed(ORDER_NOT_FOUND, 404);
}

const INTENTS = [FEEDBACK_INTENT, "replace", "ask"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  if (intent === FEEDBACK_INTENT) return orderFeedbackAction(context, request, formData);
  const orderId = (new URL(request.url).searchParams.get("id") ?? "").trim().slice(0, ORDER_ID_MAX_LENGTH);
  return orderRequestAction(context, request, { orderId, intent, formData });
}

function usePollWhilePending(pending: boolean) {
  const { state, revalidate } = useRevalidator();
  // Re-armed after each revalidation (state goes back to "idle"), so two never overlap.
  useEffect(() => {
    if (!pending || state !== "idle") return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") revalidate();
    }, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, state, revalidate]);
}

export default function FindOrderPage() {
  const { id, order, error, noScriptRefresh, requests, panel, feedback } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/find-order";
  usePollWhilePending(order?.status === "pending");

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Find Order</h1>
      <PageToast />
      <Form
        method="get"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        role="search"
        // The order's view starts loading with the search, not after it.
        onSubmit={() => void loadOrderDetails()}
      >
        <div className="flex flex-1 flex-col gap-1">
          <label htmlFor="order-id" className="text-sm font-semibold">
            Order ID
          </label>
          <input
            id="order-id"
            key={id}
            name="id"
            type="text"
            required
            maxLength={ORDER_ID_MAX_LENGTH}
            defaultValue={id}
            autoComplete="off"
            spellCheck={false}
            placeholder="The order id from your email"
            className="rounded-md border border-slate-300 px-3 py-2 font-mono"
          />
        </div>
        <button
          type="submit"
          aria-disabled={searching}
          className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 aria-disabled:opacity-70"
        >
          {searching ? "Searching…" : "Search"}
        </button>
      </Form>

      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 font-semibold text-red-800">
          {error}
        </p>
      )}

      {order && (
        <Suspense fallback={<p className="text-sm text-slate-600">Loading the order…</p>}>
          <OrderDetails
            order={order}
            requests={requests}
            panel={panel}
            feedback={feedback}
            checkAgainHref={findOrderPath({ id: order._id })}
            refreshesByItself={noScriptRefresh !== null}
          />
        </Suspense>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
