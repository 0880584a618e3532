import type { AppLoadContext } from "@remix-run/node";
import { OTHER_REQUEST_FORM, REPLACEMENT_FORM } from "./request-form-ids";
import { otherRequestFormSchema, replacementFormSchema } from "./request-schemas";
import { type HumanCheckChallenge, freshHumanCheck } from "./accounts.server";
import { formAction } from "./form-action.server";
import { HUMAN_CHECK_FIELD } from "./human-check-field";
import type { Order } from "./orders.server";
import { type OrderRequest, listRequests, requestReplacement, sendOtherRequest } from "./requests.server";
import { sessionToken } from "./session.server";
import { redirectWithSuccess } from "./toast.server";

/*
 * The order page's requests (ADR 020): who is looking (only the order's owner may ask), each line's
 * request history, and the replacement and question forms' action. find-order.tsx calls these.
 */

/** The order's owner, another account, or nobody signed in. */
export type Viewer = "owner" | "other" | "guest";

/** Which panel the URL opens: `?show=info|history|replace|ask&line=<option id>[&index=<credential>]`. */
export type OrderPanel = {
  show: "info" | "history" | "replace" | "ask";
  line: string;
  index: number | null;
};

export type OrderRequestsData = {
  viewer: Viewer;
  /** Each line's requests, newest first, by option id (the owner's only). */
  histories: Record<string, OrderRequest[]>;
  /** Why a signed-in visitor may not ask (another account's order). */
  refusal: string | null;
  /** The replacement form's human check, when that form is open. */
  humanCheck: HumanCheckChallenge | null;
};

const PANELS = new Set(["info", "history", "replace", "ask"]);

export function panelFrom(search: URLSearchParams, order: Order | null): OrderPanel | null {
  const show = search.get("show") ?? "";
  const line = search.get("line") ?? "";
  if (!order || !PANELS.has(show) || !order.products.some((product) => product.productOption === line)) return null;
  const index = Number.parseInt(search.get("index") ?? "", 10);
  return { show: show as OrderPanel["show"], line, index: Number.isInteger(index) && index >= 0 ? index : null };
}

/** Lines with the same option (the bought one and its replacement lines) share one history. */
function distinctLines(order: Order) {
  const seen = new Map<string, string>();
  for (const product of order.products) seen.set(product.productOption, product.product);
  return [...seen].map(([productOptionId, productId]) => ({ orderId: order._id, productId, productOptionId }));
}

export async function loadOrderRequests(
  context: AppLoadContext,
  request: Request,
  order: Order,
  panel: OrderPanel | null,
): Promise<OrderRequestsData> {
  const guest: OrderRequestsData = { viewer: "guest", histories: {}, refusal: null, humanCheck: null };
  if (!(await sessionToken(request, context))) return guest;
  const histories: Record<string, OrderRequest[]> = {};
  for (const line of distinctLines(order)) {
    const answer = await listRequests(context, request, line);
    if (!answer.ok && answer.status === 401) return guest;
    if (!answer.ok) return { ...guest, viewer: "other", refusal: answer.message };
    histories[line.productOptionId] = answer.payload;
  }
  const humanCheck = panel?.show === "replace" ? await freshHumanCheck(context) : null;
  return { viewer: "owner", histories, refusal: null, humanCheck };
}

/**
 * The order page's request forms: intent=replace (a replacement of one credential) and intent=ask (any other
 * request on a line). Success comes back to the order with the API's message; a refusal stays in the form.
 */
export function orderRequestAction(
  context: AppLoadContext,
  request: Request,
  { orderId, intent, formData }: { orderId: string; intent: "replace" | "ask"; formData: FormData },
) {
  const done = (answer: { message: string }) =>
    redirectWithSuccess(context, `/find-order?${new URLSearchParams({ id: orderId })}`, answer.message);
  if (intent === "ask") {
    return formAction(formData, {
      form: OTHER_REQUEST_FORM,
      schema: otherRequestFormSchema,
      fields: ["message"],
      call: ({ productId, productOptionId, message }) =>
        sendOtherRequest(context, request, { orderId, productId, productOptionId, message }),
      done,
    });
  }
  return formAction(formData, {
    form: REPLACEMENT_FORM,
    schema: replacementFormSchema,
    fields: ["message"],
    honeypot: true,
    // A refused replacement may have spent the human check; a 4xx answer does not reload the loader's.
    extra: () => freshHumanCheck(context),
    call: ({ productId, productOptionId, index, message, [HUMAN_CHECK_FIELD]: humanCheck }) =>
      requestReplacement(context, request, {
        orderId,
        productId,
        productOptionId,
        index,
        message,
        humanCheck: humanCheck ?? "",
      }),
    done,
  });
}
