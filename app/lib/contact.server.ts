import type { AppLoadContext } from "@remix-run/node";
import { guestTicketOpenedSchema, guestTicketSchema } from "../../contract/answers/contact";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of guest support (ADR 039). No token goes with these calls: a guest has none, and a signed-in
 * visitor's account has nothing to do with a conversation its link opens.
 */

export function openGuestTicket(
  context: AppLoadContext,
  input: { email: string; orderId: string; message: string; humanCheck: string },
) {
  const { humanCheck, ...fields } = input;
  return apiCall(context, {
    path: "/v1/contact",
    body: { ...fields, "g-recaptcha-response": humanCheck },
    answer: guestTicketOpenedSchema,
  });
}

/** The conversation a mailed link opens; an unknown link throws the 404 page. */
export function readGuestTicket(context: AppLoadContext, token: string) {
  return apiPayload(context, { path: `/v1/contact/${encodeURIComponent(token)}`, answer: guestTicketSchema });
}

export function replyAsGuest(context: AppLoadContext, token: string, message: string) {
  return apiCall(context, {
    path: `/v1/contact/${encodeURIComponent(token)}/reply`,
    body: { message },
    answer: guestTicketSchema,
  });
}
