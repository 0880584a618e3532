import { createRoute, z } from "@hono/zod-openapi";
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
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import {
  INBOX_MESSAGES,
  listReplacementSettings,
  listStaffFeedback,
  listStaffRequests,
  listStaffTickets,
  readStaffTicket,
  setFeedbackReply,
  setFeedbackVisible,
  setReplacementSettings,
  setStaffTicketStatus,
} from "../../services/admin-inbox";
import { REQUEST_MESSAGES, answerRequest, completeReplacement, rejectRequest } from "../../services/requests";
import { TICKET_MESSAGES, addStaffReply } from "../../services/tickets";
import { STAFF_ONLY } from "./staff";

/*
 * The staff inbox, /v1/admin/tickets, /requests and /feedback (ADR 029), area `support`: owners and
 * support staff. Replies and resolutions reuse the customer side's services, which mail the customer;
 * every change is audited.
 */

const ADMIN = ["Back office"];
const FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED, ...STAFF_ONLY };

const listQuery = <F extends readonly [string, ...string[]]>(filters: F, fallback: F[number]) =>
  z.object({
    filter: z
      .enum(filters)
      .default(fallback as never)
      .openapi({ param: { name: "filter", in: "query" }, description: filters.join(", ") }),
    search: z
      .string()
      .trim()
      .max(200, "Search is too long")
      .default("")
      .openapi({ param: { name: "search", in: "query" } }),
    page: z.coerce
      .number()
      .int("Page must be a whole number")
      .min(1, "Page starts at 1")
      .max(100_000)
      .default(1)
      .openapi({ param: { name: "page", in: "query" } }),
  });

/** A malformed id names no row: the same 404 as an unknown one. */
function idOf(id: string, message: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(message);
  return id;
}

const ticketPath = { params: pathParams("ticketId") };
const requestPath = { params: pathParams("requestId") };
const feedbackPath = { params: pathParams("feedbackId") };
const TICKET_FAILURES = { ...FAILURES, 404: "no ticket has this id" };
const REQUEST_FAILURES = { ...FAILURES, 404: "no request has this id", 409: "the request is no longer pending" };
const FEEDBACK_FAILURES = { ...FAILURES, 404: "no review has this id" };

export const inboxRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/tickets",
      tags: ADMIN,
      summary: "Every customer's tickets: waiting for staff (oldest first), open, closed or all",
      description: "`search` matches part of the subject or the customer's email, or is an order id.",
      ...staffRoute("support"),
      request: { query: listQuery(TICKET_FILTERS, "waiting") },
      responses: answers(200, staffTicketPageSchema, "a page of tickets", FAILURES),
    }),
    async (c) => ok(c, await listStaffTickets(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/tickets/{ticketId}",
      tags: ADMIN,
      summary: "A ticket and its conversation",
      ...staffRoute("support"),
      request: ticketPath,
      responses: answers(200, staffTicketSchema, "the ticket", TICKET_FAILURES),
    }),
    async (c) =>
      ok(c, await readStaffTicket(c.get("db"), idOf(c.req.valid("param").ticketId, TICKET_MESSAGES.notFound))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/tickets/{ticketId}/reply",
      tags: ADMIN,
      summary: "Answer a ticket; the customer sees 'Admin' and is mailed; audited",
      ...staffRoute("support"),
      request: { ...ticketPath, body: jsonBody(staffReplySchema) },
      responses: answers(200, staffTicketSchema, "the ticket", { ...TICKET_FAILURES, 409: "the ticket is closed" }),
    }),
    async (c) => {
      const ticketId = idOf(c.req.valid("param").ticketId, TICKET_MESSAGES.notFound);
      const actor = staffActor(c);
      await addStaffReply(
        { db: c.get("db"), config: c.get("config") },
        { ticketId, staffUserId: actor.userId, message: c.req.valid("json").message, actor },
      );
      return ok(c, await readStaffTicket(c.get("db"), ticketId), "Reply sent; the customer is mailed");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/tickets/{ticketId}/status",
      tags: ADMIN,
      summary: "Close or reopen a ticket; audited",
      ...staffRoute("support"),
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
    createRoute({
      method: "get",
      path: "/requests",
      tags: ADMIN,
      summary: "Replacement and other requests: pending (oldest first), completed, rejected or all",
      description: "`search` matches part of the customer's email or the product, or is an order id.",
      ...staffRoute("support"),
      request: { query: listQuery(REQUEST_FILTERS, "pending") },
      responses: answers(200, staffRequestPageSchema, "a page of requests", FAILURES),
    }),
    async (c) => ok(c, await listStaffRequests(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/requests/{requestId}/complete",
      tags: ADMIN,
      summary: "Complete a replacement from stock, or with a pasted username:password; the customer is mailed; audited",
      ...staffRoute("support"),
      request: { ...requestPath, body: jsonBody(completeReplacementSchema) },
      responses: answers(200, requestResolvedSchema, "the completed request", {
        ...REQUEST_FAILURES,
        400: "bad input, not a replacement request, or a pasted credential that is not username:password",
        409: "no longer pending, or no stock to take a credential from",
      }),
    }),
    async (c) => {
      const requestId = idOf(c.req.valid("param").requestId, REQUEST_MESSAGES.requestNotFound);
      const actor = staffActor(c);
      const request = await completeReplacement(
        { db: c.get("db"), config: c.get("config") },
        { requestId, staffUserId: actor.userId, credential: c.req.valid("json").credential, actor },
      );
      return ok(c, { _id: request._id, status: request.status }, "Replacement delivered; the customer is mailed");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/requests/{requestId}/answer",
      tags: ADMIN,
      summary: "Answer an other request (it is completed); the customer is mailed; audited",
      ...staffRoute("support"),
      request: { ...requestPath, body: jsonBody(answerRequestSchema) },
      responses: answers(200, requestResolvedSchema, "the answered request", REQUEST_FAILURES),
    }),
    async (c) => {
      const requestId = idOf(c.req.valid("param").requestId, REQUEST_MESSAGES.requestNotFound);
      const actor = staffActor(c);
      const request = await answerRequest(
        { db: c.get("db"), config: c.get("config") },
        { requestId, staffUserId: actor.userId, answer: c.req.valid("json").answer, actor },
      );
      return ok(c, { _id: request._id, status: request.status }, "Answer sent; the customer is mailed");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/requests/{requestId}/reject",
      tags: ADMIN,
      summary: "Reject a request with a reason the customer sees; the customer is mailed; audited",
      ...staffRoute("support"),
      request: { ...requestPath, body: jsonBody(rejectRequestSchema) },
      responses: answers(200, requestResolvedSchema, "the rejected request", REQUEST_FAILURES),
    }),
    async (c) => {
      const requestId = idOf(c.req.valid("param").requestId, REQUEST_MESSAGES.requestNotFound);
      const actor = staffActor(c);
      const request = await rejectRequest(
        { db: c.get("db"), config: c.get("config") },
        { requestId, staffUserId: actor.userId, reason: c.req.valid("json").reason, actor },
      );
      return ok(c, { _id: request._id, status: request.status }, "Request rejected; the customer is mailed");
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/replacement-settings",
      tags: ADMIN,
      summary: "Each product's automatic replacement switch and per-credential replacement limit",
      ...staffRoute("support"),
      responses: answers(200, productReplacementSettingsListSchema, "the products", FAILURES),
    }),
    async (c) => ok(c, await listReplacementSettings(c.get("db"))),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/replacement-settings/{productId}",
      tags: ADMIN,
      summary: "Set a product's automatic replacement and replacement limit; audited",
      ...staffRoute("support"),
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
    createRoute({
      method: "get",
      path: "/feedback",
      tags: ADMIN,
      summary: "Reviews, newest first, with hidden ones",
      description: "`search` matches part of the review, the product or the customer's email.",
      ...staffRoute("support"),
      request: { query: listQuery(FEEDBACK_FILTERS, "all") },
      responses: answers(200, staffFeedbackPageSchema, "a page of reviews", FAILURES),
    }),
    async (c) => ok(c, await listStaffFeedback(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/feedback/{feedbackId}/visibility",
      tags: ADMIN,
      summary: "Hide a review from /feedback and the product's rating, or show it again; audited",
      ...staffRoute("support"),
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
    createRoute({
      method: "put",
      path: "/feedback/{feedbackId}/reply",
      tags: ADMIN,
      summary: "The store's public reply under a review, shown as 'Admin' (empty removes it); audited",
      ...staffRoute("support"),
      request: { ...feedbackPath, body: jsonBody(feedbackReplySchema) },
      responses: answers(200, feedbackReplySetSchema, "the reply", FEEDBACK_FAILURES),
    }),
    async (c) => {
      const feedbackId = idOf(c.req.valid("param").feedbackId, INBOX_MESSAGES.feedbackNotFound);
      const result = await setFeedbackReply(c.get("db"), staffActor(c), feedbackId, c.req.valid("json").reply);
      return ok(c, result, result.reply ? "Reply published" : "Reply removed");
    },
  );
