import { createRoute, z } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import {
  STAFF_ANSWER_MAX_LENGTH,
  credentialIndexField,
  otherRequestMessageField,
  replacementMessageField,
} from "../../contract/request";
import { notFound } from "../errors";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import {
  BAD_INPUT,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  publicIdSchema,
  sentenceFailure,
  signedIn,
} from "../openapi";
import { requestIp } from "../request-ip";
import { HUMAN_CHECK_FIELD } from "../services/human-check";
import {
  REQUEST_MESSAGES,
  answerRequest,
  completeReplacement,
  createOtherRequest,
  createReplacement,
  endWarranty,
  listRequests,
  rejectRequest,
} from "../services/requests";

const idField = (name: string) => z.string({ required_error: `${name} is required` }).max(64);
const lineSchema = z.object({
  orderId: idField("orderId"),
  productId: idField("productId").openapi({ description: "`product` of the order line" }),
  productOptionId: idField("productOptionId").openapi({ description: "`productOption` of the order line" }),
});
const replacementSchema = lineSchema.extend({
  message: replacementMessageField.openapi({ description: "what goes wrong, in a sentence or two" }),
  index: credentialIndexField.openapi({ description: "the credential's entry in `credIndexes` of the order line" }),
  [HUMAN_CHECK_FIELD]: z.string().max(8192).optional().openapi({ description: "the human-check answer" }),
});
const otherSchema = lineSchema.extend({ message: otherRequestMessageField });

const requestSchema = z
  .object({
    _id: publicIdSchema,
    kind: z.enum(["replacement", "other"]),
    index: z.number().int().nullable().openapi({ description: "the credential a replacement is for" }),
    status: z.enum(["pending", "completed", "rejected"]),
    createdAt: z.string().openapi({ description: "ISO 8601" }),
    resolvedAt: z.string().nullable().openapi({ description: "ISO 8601" }),
    message: z.string(),
    creds: z
      .array(z.string())
      .openapi({ description: "a completed replacement's new credential, `username:password`" }),
    reason: z.string().nullable().openapi({ description: "why it was rejected" }),
    answer: z.string().nullable().openapi({ description: "staff's answer to a completed other request" }),
  })
  .openapi("Request");

const REQUESTS = ["Requests"];
const NOT_OWNER = {
  403: "the order is another account's",
  404: "`Order not found`, or the product is not part of the order",
};

// The customer's forms show the API's message as it is: a whole sentence, not "field: message".
export const requestRoutes = apiRouter(sentenceFailure)
  .openapi(
    createRoute({
      method: "post",
      path: "/getRequests",
      tags: REQUESTS,
      summary: "The requests on an order line (replacement lines included), newest first",
      security: signedIn,
      request: { body: jsonBody(lineSchema) },
      responses: answers(200, z.array(requestSchema), "the history", { ...BAD_INPUT, ...UNAUTHORIZED, ...NOT_OWNER }),
    }),
    async (c) => {
      const user = requireUser(c);
      return ok(c, await listRequests(c.get("db"), user.id, c.req.valid("json")));
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/createReplacement",
      tags: REQUESTS,
      summary: "Ask for a warranty replacement of one delivered credential",
      description:
        "Delivered at once from stock when the product replaces automatically (201 with `status: completed` and the " +
        "new credential, also added to the order as a replacement line that keeps the old warranty end); otherwise " +
        "`status: pending` until staff complete or reject it.",
      security: signedIn,
      request: { body: jsonBody(replacementSchema) },
      responses: answers(201, requestSchema, "the request, completed or pending", {
        400: "bad input or a failed human check (`errors` names each field)",
        ...UNAUTHORIZED,
        ...NOT_OWNER,
        409:
          "the order is not delivered, the credential was replaced or already has an open request, " +
          "its warranty ended, or it reached the product's replacement limit",
        429: "more than 10 replacement requests an hour",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const { [HUMAN_CHECK_FIELD]: humanCheck, ...input } = c.req.valid("json");
      const { request, message } = await createReplacement(
        { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
        { ...input, userId: user.id, humanCheck, ip: requestIp(c) },
      );
      return ok(c, request, message, 201);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/createRequest",
      tags: REQUESTS,
      summary: "Any other request about an order line; pending until staff answer",
      security: signedIn,
      request: { body: jsonBody(otherSchema) },
      responses: answers(201, requestSchema, "the request, pending", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        ...NOT_OWNER,
        409: "3 requests on this line already wait for an answer",
        429: "more than 10 requests an hour",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const request = await createOtherRequest(
        { db: c.get("db"), config: c.get("config") },
        { ...c.req.valid("json"), userId: user.id },
      );
      return ok(c, request, REQUEST_MESSAGES.sent, 201);
    },
  );

/** A malformed id names no request: the same 404 as an unknown one. */
function requestIdOf(id: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(REQUEST_MESSAGES.requestNotFound);
  return id;
}

const staffWords = (name: string) =>
  z
    .string({ required_error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(STAFF_ANSWER_MAX_LENGTH, `${name} is at most ${STAFF_ANSWER_MAX_LENGTH} characters`);
const requestIdParams = z.object({
  requestId: publicIdSchema.openapi({ param: { name: "requestId", in: "path" } }),
});
const SANDBOX_TAGS = ["Sandbox requests"];
const SANDBOX_FAILURES = { ...BAD_INPUT, 404: "`Request not found`, or the sandbox is off here" };

/**
 * The sandbox's stand-in for the back office's request screens (as for tickets, ADR 017): staff
 * actions through the same service calls, where the sandbox gateway is on (never in production
 * unless SANDBOX_PAYMENTS=true), so a local store and the browser tests can resolve requests.
 */
const requestSandboxRouter = apiRouter();
requestSandboxRouter.use(async (c, next) => {
  if (!c.get("config").payments.sandbox) throw notFound(REQUEST_MESSAGES.requestNotFound);
  await next();
});
export const requestSandboxRoutes = requestSandboxRouter
  .openapi(
    createRoute({
      method: "post",
      path: "/{requestId}/complete",
      tags: SANDBOX_TAGS,
      summary: "Complete a pending replacement as staff: from stock, or with a pasted `username:password`",
      request: {
        params: requestIdParams,
        body: jsonBody(z.object({ credential: z.string().max(1000).optional() })),
      },
      responses: answers(200, requestSchema, "completed; the customer's mail is queued", {
        ...SANDBOX_FAILURES,
        409: "the request is not pending, or (no credential given) the option has no stock",
      }),
    }),
    async (c) => {
      const request = await completeReplacement(
        { db: c.get("db"), config: c.get("config") },
        { requestId: requestIdOf(c.req.param("requestId")), staffUserId: null, ...c.req.valid("json") },
      );
      return ok(c, request, "Replacement delivered");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{requestId}/reject",
      tags: SANDBOX_TAGS,
      summary: "Reject a pending request as staff, with the reason the customer sees",
      request: { params: requestIdParams, body: jsonBody(z.object({ reason: staffWords("Reason") })) },
      responses: answers(200, requestSchema, "rejected; the customer's mail is queued", {
        ...SANDBOX_FAILURES,
        409: "the request is not pending",
      }),
    }),
    async (c) => {
      const request = await rejectRequest(
        { db: c.get("db"), config: c.get("config") },
        { requestId: requestIdOf(c.req.param("requestId")), staffUserId: null, ...c.req.valid("json") },
      );
      return ok(c, request, "Request rejected");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{requestId}/answer",
      tags: SANDBOX_TAGS,
      summary: "Answer a pending other request as staff",
      request: { params: requestIdParams, body: jsonBody(z.object({ answer: staffWords("Answer") })) },
      responses: answers(200, requestSchema, "answered; the customer's mail is queued", {
        ...SANDBOX_FAILURES,
        409: "the request is not pending",
      }),
    }),
    async (c) => {
      const request = await answerRequest(
        { db: c.get("db"), config: c.get("config") },
        { requestId: requestIdOf(c.req.param("requestId")), staffUserId: null, ...c.req.valid("json") },
      );
      return ok(c, request, "Answer sent");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/warranty/end",
      tags: SANDBOX_TAGS,
      summary: "End a delivered credential's warranty now, as staff (the terms end it when an account is changed)",
      request: {
        body: jsonBody(
          z.object({
            orderId: idField("orderId"),
            productOptionId: idField("productOptionId"),
            index: credentialIndexField,
          }),
        ),
      },
      responses: answers(200, z.object({}), "the warranty has ended", {
        ...BAD_INPUT,
        404: "`Order not found`, no such credential, or the sandbox is off here",
      }),
    }),
    async (c) => {
      await endWarranty(c.get("db"), c.req.valid("json"));
      return ok(c, {}, "Warranty ended");
    },
  );
