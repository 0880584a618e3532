import { z } from "@hono/zod-openapi";
import {
  CONTACT_NOT_FOUND,
  CONTACT_OPENED,
  CONTACT_ORDER_NOT_FOUND,
  contactOpenSchema,
  contactReplySchema,
} from "../../contract/contact";
import { guestTicketOpenedSchema, guestTicketSchema } from "../../contract/answers/contact";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { notFound } from "../errors";
import { depsOf } from "../context";
import { ok } from "../http";
import { answers, apiRouter, declareRoute, jsonBody, pathIdSchema } from "../openapi";
import { requestIp } from "../request-ip";
import { openGuestTicket, readGuestTicket, sendGuestMessage } from "../services/support/guest-tickets";

/*
 * Guest support, /v1/contact (ADR 039): no account, no token. The contact form opens a ticket; the link mailed to
 * its email, /contact/{token}, reads and answers it. The token is a path segment of 22 characters that only that
 * mail (and each staff answer's mail) holds.
 */

/** A malformed token names no conversation: the same 404 as an unknown one. */
function tokenOf(token: string): string {
  if (!PUBLIC_ID_PATTERN.test(token)) throw notFound(CONTACT_NOT_FOUND);
  return token;
}

const openSchema = contactOpenSchema.extend({
  orderId: contactOpenSchema.shape.orderId.openapi({
    description: "optional: an order placed with this email (an order of its account counts too)",
  }),
  message: contactOpenSchema.shape.message.openapi({
    description: "plain text; its first line names the ticket in the staff inbox",
  }),
  "g-recaptcha-response": z.string().max(8192).optional().openapi({ description: "the human-check answer" }),
});
const tokenParams = z.object({
  token: pathIdSchema.openapi({
    param: { name: "token", in: "path" },
    description: "the 22-character token of a link mailed to the guest",
  }),
});
const CONTACT = ["Guest support"];
const UNKNOWN_LINK = { 404: `\`${CONTACT_NOT_FOUND}\`: unknown or malformed token` };

export const contactRoutes = apiRouter()
  .openapi(
    declareRoute(CONTACT, {
      method: "post",
      path: "/",
      summary: "Open a ticket as a guest: the link to its conversation is mailed to the email, never answered",
      description:
        "No account is made or needed, and a signed-in caller's account is not used. A mail confirms the ticket " +
        "with a link to `/contact/{token}`; staff answer in the back office's inbox, and each answer is mailed " +
        "with a new link (older links keep working).",
      request: { body: jsonBody(openSchema) },
      responses: answers(201, guestTicketOpenedSchema, "the ticket is open and the mail queued", {
        400:
          "bad input (`errors` names each field), the human check failed, or " +
          `\`${CONTACT_ORDER_NOT_FOUND}\` (unknown, malformed, or not this email's: one answer)`,
        429: "more than 10 new tickets an hour from this address, or 5 for this email",
      }),
    }),
    async (c) => {
      const { "g-recaptcha-response": humanCheck, ...input } = c.req.valid("json");
      const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
      const opened = await openGuestTicket(deps, { ...input, humanCheck, clientIp: requestIp(c) });
      return ok(c, opened, CONTACT_OPENED, 201);
    },
  )
  .openapi(
    declareRoute(CONTACT, {
      method: "get",
      path: "/{token}",
      summary: "The conversation a mailed link opens",
      request: { params: tokenParams },
      responses: answers(200, guestTicketSchema, "the ticket and its messages", {
        ...UNKNOWN_LINK,
        429: "more than 120 views in 15 minutes from this address",
      }),
    }),
    async (c) => {
      const token = tokenOf(c.req.param("token"));
      return ok(c, await readGuestTicket(depsOf(c), { token, clientIp: requestIp(c) }));
    },
  )
  .openapi(
    declareRoute(CONTACT, {
      method: "post",
      path: "/{token}/reply",
      summary: "Write in the conversation a mailed link opens",
      request: { params: tokenParams, body: jsonBody(contactReplySchema) },
      responses: answers(200, guestTicketSchema, "the conversation with the new message", {
        400: "bad input: `errors.message`",
        ...UNKNOWN_LINK,
        409: "staff closed the conversation: write again from the contact form",
        429: "more than 30 messages in 15 minutes from this address, or 10 in this conversation",
      }),
    }),
    async (c) => {
      const token = tokenOf(c.req.param("token"));
      const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
      const ticket = await sendGuestMessage(deps, {
        token,
        message: c.req.valid("json").message,
        clientIp: requestIp(c),
      });
      return ok(c, ticket, "Message sent");
    },
  );
