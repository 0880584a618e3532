import { z } from "@hono/zod-openapi";
import { orderRequestListSchema, orderRequestSchema } from "../../contract/answers/request";
import { credentialIndexField, otherRequestMessageField, replacementMessageField } from "../../contract/request";
import { depsOf } from "../context";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import {
  SIGNED_IN_FAILURES,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  sentenceFailure,
  signedInRoute,
} from "../openapi";
import { requestIp } from "../request-ip";
import { HUMAN_CHECK_FIELD } from "../services/guards/human-check";
import { REQUEST_MESSAGES } from "../services/support/request-records";
import { createOtherRequest, createReplacement, listRequests } from "../services/support/requests";

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

const REQUESTS = ["Requests"];
const NOT_OWNER = {
  403: "the order is another account's",
  404: "`Order not found`, or the product is not part of the order",
};

// The customer's forms show the API's message as it is: a whole sentence, not "field: message".
export const requestRoutes = apiRouter(sentenceFailure)
  .openapi(
    signedInRoute(REQUESTS, {
      method: "post",
      path: "/getRequests",
      summary: "The requests on an order line (replacement lines included), newest first",
      request: { body: jsonBody(lineSchema) },
      responses: answers(200, orderRequestListSchema, "the history", { ...SIGNED_IN_FAILURES, ...NOT_OWNER }),
    }),
    async (c) => {
      return ok(c, await listRequests(c.get("db"), requireUser(c).id, c.req.valid("json")));
    },
  )
  .openapi(
    signedInRoute(REQUESTS, {
      method: "post",
      path: "/createReplacement",
      summary: "Ask for a warranty replacement of one delivered credential",
      description:
        "Delivered at once from stock when the product replaces automatically (201 with `status: completed` and the " +
        "new credential, also added to the order as a replacement line that keeps the old warranty end); otherwise " +
        "`status: pending` until staff complete or reject it.",
      request: { body: jsonBody(replacementSchema) },
      responses: answers(201, orderRequestSchema, "the request, completed or pending", {
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
      const { [HUMAN_CHECK_FIELD]: humanCheck, ...input } = c.req.valid("json");
      const { request, message } = await createReplacement(
        { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
        { ...input, userId: requireUser(c).id, humanCheck, ip: requestIp(c) },
      );
      return ok(c, request, message, 201);
    },
  )
  .openapi(
    signedInRoute(REQUESTS, {
      method: "post",
      path: "/createRequest",
      summary: "Any other request about an order line; pending until staff answer",
      request: { body: jsonBody(otherSchema) },
      responses: answers(201, orderRequestSchema, "the request, pending", {
        ...SIGNED_IN_FAILURES,
        ...NOT_OWNER,
        409: "3 requests on this line already wait for an answer",
        429: "more than 10 requests an hour",
      }),
    }),
    async (c) => {
      const request = await createOtherRequest(depsOf(c), { ...c.req.valid("json"), userId: requireUser(c).id });
      return ok(c, request, REQUEST_MESSAGES.sent, 201);
    },
  );
