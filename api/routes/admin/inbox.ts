import { z } from "@hono/zod-openapi";
import {
  FEEDBACK_FILTERS,
  REQUEST_FILTERS,
  TICKET_FILTERS,
  answerRequestSchema,
  completeReplacementSchema,
  feedbackReplySchema,
  feedbackVisibilitySchema,
  rejectRequestSchema,
  replacementSettingsSchema,
  staffReplySchema,
  ticketStatusSchema,
} from "../../../contract/admin-inbox";
import {
  feedbackReplySetSchema,
  feedbackVisibilitySetSchema,
  productReplacementSettingsListSchema,
  productReplacementSettingsSchema,
  requestResolvedSchema,
  staffFeedbackPageSchema,
  staffRequestPageSchema,
  staffTicketPageSchema,
  staffTicketSchema,
} from "../../../contract/answers/admin-inbox";
import type { Context } from "hono";
import { type ApiEnv, depsOf } from "../../context";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import {
  INBOX_MESSAGES,
  listStaffTickets,
  readStaffTicket,
  setStaffTicketStatus,
} from "../../services/support/admin-inbox";
import {
  listReplacementSettings,
  listStaffRequests,
  setReplacementSettings,
  answerRequest,
  completeReplacement,
  rejectRequest,
} from "../../services/support/admin-requests";
import { listStaffFeedback, setFeedbackReply, setFeedbackVisible } from "../../services/support/admin-feedback";
import { REQUEST_MESSAGES } from "../../services/support/request-records";
import { TICKET_MESSAGES, addStaffReply } from "../../services/support/tickets";
import { FAILURES, adminRoute, idOf, pageField, searchField } from "./admin-route";

/*
 * The staff inbox, /v1/admin/tickets, /requests and /feedback (ADR 029), area `support`: owners and
 * support staff. Replies and resolutions reuse the customer side's services, which mail the customer;
 * every change is audited.
 */

const listQuery = <F extends readonly [string, ...string[]]>(filters: F, fallback: F[number]) =>
  z.object({
    filter: z
      .enum(filters)
      .default(fallback as never)
      .openapi({ param: { name: "filter", in: "query" }, description: filters.join(", ") }),
    search: searchField(),
    page: pageField,
  });

/** Who resolves the request the path names, as the request services take it. */
function resolving(c: Context<ApiEnv>) {
  const actor = staffActor(c);
  const requestId = idOf(c.req.param("requestId") ?? "", REQUEST_MESSAGES.requestNotFound);
  return { requestId, staffUserId: actor.userId, actor };
}

const ticketPath = { params: pathParams("ticketId") };
const requestPath = { params: pathParams("requestId") };
const feedbackPath = { params: pathParams("feedbackId") };
const TICKET_FAILURES = { ...FAILURES, 404: "no ticket has this id" };
const REQUEST_FAILURES = { ...FAILURES, 404: "no request has this id", 409: "the request is no longer pending" };
const FEEDBACK_FAILURES = { ...FAILURES, 404: "no review has this id" };

export const inboxRoutes = apiRouter()
  .openapi(
    adminRoute("support", {
      method: "get",
      path: "/tickets",
      summary: "Every customer's tickets: waiting for staff (oldest first), open, closed or all",
      description: "`search` matches part of the subject or the customer's email, or is an order id.",
      request: { query: listQuery(TICKET_FILTERS, "waiting") },
      responses: answers(200, staffTicketPageSchema, "a page of tickets", FAILURES),
    }),
    async (c) => ok(c, await listStaffTickets(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("support", {
      method: "get",
      path: "/tickets/{ticketId}",
      summary: "A ticket and its conversation",
      request: ticketPath,
      responses: answers(200, staffTicketSchema, "the ticket", TICKET_FAILURES),
    }),
    async (c) =>
      ok(c, await readStaffTicket(c.get("db"), idOf(c.req.valid("param").ticketId, TICKET_MESSAGES.notFound))),
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/tickets/{ticketId}/reply",
      summary: "Answer a ticket; the customer sees 'Admin' and is mailed; audited",
      request: { ...ticketPath, body: jsonBody(staffReplySchema) },
      responses: answers(200, staffTicketSchema, "the ticket", { ...TICKET_FAILURES, 409: "the ticket is closed" }),
    }),
    async (c) => {
      const ticketId = idOf(c.req.valid("param").ticketId, TICKET_MESSAGES.notFound);
      const actor = staffActor(c);
      await addStaffReply(depsOf(c), {
        ticketId,
        staffUserId: actor.userId,
        message: c.req.valid("json").message,
        actor,
      });
      return ok(c, await readStaffTicket(c.get("db"), ticketId), "Reply sent; the customer is mailed");
    },
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/tickets/{ticketId}/status",
      summary: "Close or reopen a ticket; audited",
      request: { ...ticketPath, body: jsonBody(ticketStatusSchema) },
      responses: answers(200, staffTicketSchema, "the ticket", TICKET_FAILURES),
    }),
    async (c) => {
      const ticketId = idOf(c.req.valid("param").ticketId, TICKET_MESSAGES.notFound);
      const { status } = c.req.valid("json");
      const result = await setStaffTicketStatus(c.get("db"), staffActor(c), ticketId, status);
      const verb = status === "closed" ? "closed" : "open";
      const message = result.changed ? `Ticket ${status === "closed" ? "closed" : "reopened"}` : `Already ${verb}`;
      return ok(c, await readStaffTicket(c.get("db"), ticketId), message);
    },
  )
  .openapi(
    adminRoute("support", {
      method: "get",
      path: "/requests",
      summary: "Replacement and other requests: pending (oldest first), completed, rejected or all",
      description: "`search` matches part of the customer's email or the product, or is an order id.",
      request: { query: listQuery(REQUEST_FILTERS, "pending") },
      responses: answers(200, staffRequestPageSchema, "a page of requests", FAILURES),
    }),
    async (c) => ok(c, await listStaffRequests(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/requests/{requestId}/complete",
      summary: "Complete a replacement from stock, or with a pasted username:password; the customer is mailed; audited",
      request: { ...requestPath, body: jsonBody(completeReplacementSchema) },
      responses: answers(200, requestResolvedSchema, "the completed request", {
        ...REQUEST_FAILURES,
        400: "bad input, not a replacement request, or a pasted credential that is not username:password",
        409: "no longer pending, or no stock to take a credential from",
      }),
    }),
    async (c) => {
      const request = await completeReplacement(depsOf(c), {
        ...resolving(c),
        credential: c.req.valid("json").credential,
      });
      return ok(c, { _id: request._id, status: request.status }, "Replacement delivered; the customer is mailed");
    },
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/requests/{requestId}/answer",
      summary: "Answer an other request (it is completed); the customer is mailed; audited",
      request: { ...requestPath, body: jsonBody(answerRequestSchema) },
      responses: answers(200, requestResolvedSchema, "the answered request", REQUEST_FAILURES),
    }),
    async (c) => {
      const request = await answerRequest(depsOf(c), { ...resolving(c), answer: c.req.valid("json").answer });
      return ok(c, { _id: request._id, status: request.status }, "Answer sent; the customer is mailed");
    },
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/requests/{requestId}/reject",
      summary: "Reject a request with a reason the customer sees; the customer is mailed; audited",
      request: { ...requestPath, body: jsonBody(rejectRequestSchema) },
      responses: answers(200, requestResolvedSchema, "the rejected request", REQUEST_FAILURES),
    }),
    async (c) => {
      const request = await rejectRequest(depsOf(c), { ...resolving(c), reason: c.req.valid("json").reason });
      return ok(c, { _id: request._id, status: request.status }, "Request rejected; the customer is mailed");
    },
  )
  .openapi(
    adminRoute("support", {
      method: "get",
      path: "/replacement-settings",
      summary: "Each product's automatic replacement switch and per-credential replacement limit",
      responses: answers(200, productReplacementSettingsListSchema, "the products", FAILURES),
    }),
    async (c) => ok(c, await listReplacementSettings(c.get("db"))),
  )
  .openapi(
    adminRoute("support", {
      method: "put",
      path: "/replacement-settings/{productId}",
      summary: "Set a product's automatic replacement and replacement limit; audited",
      request: { params: pathParams("productId"), body: jsonBody(replacementSettingsSchema) },
      responses: answers(200, productReplacementSettingsSchema, "the product's settings", {
        ...FAILURES,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, INBOX_MESSAGES.productNotFound);
      const settings = await setReplacementSettings(c.get("db"), staffActor(c), productId, c.req.valid("json"));
      return ok(c, settings, `${settings.title}: replacement settings saved`);
    },
  )
  .openapi(
    adminRoute("support", {
      method: "get",
      path: "/feedback",
      summary: "Reviews, newest first, with hidden ones",
      description: "`search` matches part of the review, the product or the customer's email.",
      request: { query: listQuery(FEEDBACK_FILTERS, "all") },
      responses: answers(200, staffFeedbackPageSchema, "a page of reviews", FAILURES),
    }),
    async (c) => ok(c, await listStaffFeedback(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("support", {
      method: "post",
      path: "/feedback/{feedbackId}/visibility",
      summary: "Hide a review from /feedback and the product's rating, or show it again; audited",
      request: { ...feedbackPath, body: jsonBody(feedbackVisibilitySchema) },
      responses: answers(200, feedbackVisibilitySetSchema, "the review's visibility", FEEDBACK_FAILURES),
    }),
    async (c) => {
      const feedbackId = idOf(c.req.valid("param").feedbackId, INBOX_MESSAGES.feedbackNotFound);
      const { visible } = c.req.valid("json");
      const result = await setFeedbackVisible(c.get("db"), staffActor(c), feedbackId, visible);
      return ok(c, result, visible ? "Review shown" : "Review hidden");
    },
  )
  .openapi(
    adminRoute("support", {
      method: "put",
      path: "/feedback/{feedbackId}/reply",
      summary: "The store's public reply under a review, shown as 'Admin' (empty removes it); audited",
      request: { ...feedbackPath, body: jsonBody(feedbackReplySchema) },
      responses: answers(200, feedbackReplySetSchema, "the reply", FEEDBACK_FAILURES),
    }),
    async (c) => {
      const feedbackId = idOf(c.req.valid("param").feedbackId, INBOX_MESSAGES.feedbackNotFound);
      const result = await setFeedbackReply(c.get("db"), staffActor(c), feedbackId, c.req.valid("json").reply);
      return ok(c, result, result.reply ? "Reply published" : "Reply removed");
    },
  );
