import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { type AppLoadContext, data } from "@remix-run/node";
import { HONEYPOT_REFUSAL, honeypotFilled } from "../account/honeypot";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { otherRequestFormSchema, replacementFormSchema } from "./request-schemas";
import { type HumanCheckChallenge, readHumanCheckChallenge } from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import type { Order } from "~/lib/orders.server";
import { type OrderRequest, listRequests, requestReplacement, sendOtherRequest } from "~/lib/requests.server";
import { sessionToken } from "~/lib/session.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";

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
  let humanCheck: HumanCheckChallenge | null = null;
  if (panel?.show === "replace") {
    const challenge = await readHumanCheckChallenge(context);
    humanCheck = challenge.ok ? challenge.payload : null;
  }
  return { viewer: "owner", histories, refusal: null, humanCheck };
}

export type RequestRefusal = {
  intent: "replace" | "ask";
  result: SubmissionResult<string[]>;
  /** A refused replacement may have spent the human check; a 4xx answer does not reload the loader's. */
  humanCheck: HumanCheckChallenge | null;
};

/**
 * The order page's form posts: intent=replace (a replacement of one credential) and intent=ask (any other
 * request on a line). Success comes back to the order with the API's message; a refusal stays in the form.
 */
export async function orderRequestAction(context: AppLoadContext, request: Request, orderId: string) {
  const back = `/find-order?${new URLSearchParams({ id: orderId })}`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent !== "replace" && intent !== "ask") return redirectWithError(context, back, "Unknown request");
  const schema = intent === "replace" ? replacementFormSchema : otherRequestFormSchema;
  const submission = parseWithZod(formData, { schema });
  const refuse = async (result: SubmissionResult<string[]>, status: number) => {
    const challenge = intent === "replace" ? await readHumanCheckChallenge(context) : null;
    return data<RequestRefusal>({ intent, result, humanCheck: challenge?.ok ? challenge.payload : null }, { status });
  };
  if (submission.status !== "success") return refuse(submission.reply(), 400);
  if (intent === "replace" && honeypotFilled(formData)) {
    return refuse(submission.reply({ formErrors: [HONEYPOT_REFUSAL] }), 400);
  }
  const { value } = submission;
  const line = { orderId, productId: value.productId, productOptionId: value.productOptionId };
  const answer =
    value.intent === "replace"
      ? await requestReplacement(context, request, {
          ...line,
          index: value.index,
          message: value.message,
          humanCheck: value[HUMAN_CHECK_FIELD] ?? "",
        })
      : await sendOtherRequest(context, request, { ...line, message: value.message });
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["message"] });
    return refuse(result, status);
  }
  return redirectWithSuccess(context, back, answer.message);
}
