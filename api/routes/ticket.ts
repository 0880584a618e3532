import { z } from "@hono/zod-openapi";
import { ticketPageSchema, ticketSchema } from "../../contract/answers/ticket";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { TICKETS_PAGE_SIZE, ticketMessageField, ticketOrderField, ticketSubjectField } from "../../contract/ticket";
import { notFound } from "../errors";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import {
  SIGNED_IN_FAILURES,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  pathIdSchema,
  signedInRoute,
} from "../openapi";
import {
  TICKET_MESSAGES,
  listTickets,
  openTicket,
  readTicket,
  sendCustomerMessage,
  setTicketStatus,
} from "../services/support/tickets";

/** A malformed id names no ticket: the same 404 as an unknown or foreign one. */
const ticketIdField = z.string({ required_error: "Ticket id is required" }).max(64);
function ownTicketId(id: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(TICKET_MESSAGES.notFound);
  return id;
}

const listSchema = z.object({
  page: z.coerce.number().int("Page must be a whole number").min(1, "Page starts at 1").max(100_000).default(1),
  search: z.string().max(200, "Search is too long").optional().default(""),
  sortBy: z.enum(["updatedAt", "createdAt"]).optional().default("updatedAt"),
});
const createSchema = z.object({
  orderId: ticketOrderField.openapi({ description: "one of the customer's orders, or empty for a general question" }),
  subject: ticketSubjectField,
  message: ticketMessageField.openapi({ description: "plain text, stored as given; clients escape it when shown" }),
});
const messageSchema = z.object({ ticketId: ticketIdField, message: ticketMessageField });
const ticketIdSchema = z.object({ ticketId: ticketIdField });

const TICKETS = ["Tickets"];
const NOT_YOURS = { 404: "`Ticket not found`: unknown, malformed, or another customer's" };
const RATE_LIMITED = { 429: "more than 10 messages (new tickets included) a minute" };

export const ticketRoutes = apiRouter()
  .openapi(
    signedInRoute(TICKETS, {
      method: "post",
      path: "/read",
      summary: `The customer's tickets with their messages, last updated first, ${TICKETS_PAGE_SIZE} a page`,
      description: "`search` matches part of the subject, case-insensitively.",
      request: { body: jsonBody(listSchema) },
      responses: answers(200, ticketPageSchema, "a page of tickets", {
        ...SIGNED_IN_FAILURES,
      }),
    }),
    async (c) => {
      return ok(c, await listTickets(c.get("db"), requireUser(c).id, c.req.valid("json")));
    },
  )
  .openapi(
    signedInRoute(TICKETS, {
      method: "get",
      path: "/read/{ticketId}",
      summary: "One of the customer's tickets, for its conversation view and to poll for replies",
      request: { params: z.object({ ticketId: pathIdSchema.openapi({ param: { name: "ticketId", in: "path" } }) }) },
      responses: answers(200, ticketSchema, "the ticket", { ...UNAUTHORIZED, ...NOT_YOURS }),
    }),
    async (c) => {
      return ok(c, await readTicket(c.get("db"), requireUser(c).id, ownTicketId(c.req.param("ticketId"))));
    },
  )
  .openapi(
    signedInRoute(TICKETS, {
      method: "post",
      path: "/create",
      summary: "Open a ticket with its first message",
      request: { body: jsonBody(createSchema) },
      responses: answers(201, ticketSchema, "the new ticket, open", {
        400: "bad input: `errors` names each field (`orderId` when the order is not the customer's)",
        ...UNAUTHORIZED,
        409: "the customer already has 5 open tickets",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => {
      const ticket = await openTicket(
        { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
        { userId: requireUser(c).id, ...c.req.valid("json") },
      );
      return ok(c, ticket, "Ticket opened. Support replies within 24 hours.", 201);
    },
  )
  .openapi(
    signedInRoute(TICKETS, {
      method: "post",
      path: "/sendMessage",
      summary: "Write to an open ticket",
      request: { body: jsonBody(messageSchema) },
      responses: answers(200, ticketSchema, "the ticket with the new message", {
        ...SIGNED_IN_FAILURES,
        ...NOT_YOURS,
        409: "the ticket is closed: reopen it first",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const ticket = await sendCustomerMessage(
        { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
        { userId: requireUser(c).id, ticketId: ownTicketId(input.ticketId), message: input.message },
      );
      return ok(c, ticket, "Message sent");
    },
  )
  .openapi(
    signedInRoute(TICKETS, {
      method: "post",
      path: "/close",
      summary: "Close a ticket: it becomes read only (closing a closed one changes nothing)",
      request: { body: jsonBody(ticketIdSchema) },
      responses: answers(200, ticketSchema, "the closed ticket", { ...SIGNED_IN_FAILURES, ...NOT_YOURS }),
    }),
    async (c) => {
      const user = requireUser(c);
      const ticketId = ownTicketId(c.req.valid("json").ticketId);
      const ticket = await setTicketStatus(c.get("db"), { userId: user.id, ticketId, status: "closed" });
      return ok(c, ticket, "Ticket closed");
    },
  )
  .openapi(
    signedInRoute(TICKETS, {
      method: "post",
      path: "/open",
      summary: "Reopen a closed ticket (reopening an open one changes nothing)",
      request: { body: jsonBody(ticketIdSchema) },
      responses: answers(200, ticketSchema, "the open ticket", {
        ...SIGNED_IN_FAILURES,
        ...NOT_YOURS,
        409: "the customer already has 5 open tickets",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const ticketId = ownTicketId(c.req.valid("json").ticketId);
      const ticket = await setTicketStatus(c.get("db"), { userId: user.id, ticketId, status: "open" });
      return ok(c, ticket, "Ticket reopened");
    },
  );
