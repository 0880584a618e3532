import { z } from "@hono/zod-openapi";
import {
  FEEDBACK_PAGE_SIZE,
  REGISTER_TO_LEAVE_FEEDBACK,
  feedbackMessageField,
  starsField,
} from "../../contract/feedback";
import { feedbackPageSchema, ownFeedbackListSchema, publicFeedbackSchema } from "../../contract/answers/feedback";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { unauthorized } from "../errors";
import { depsOf } from "../context";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import { BAD_INPUT, SIGNED_IN_FAILURES, answers, apiRouter, declareRoute, jsonBody, signedInRoute } from "../openapi";
import {
  FEEDBACK_MESSAGES,
  listOwnFeedbackForOrder,
  listPublicFeedback,
  saveFeedback,
} from "../services/support/feedback";

const idField = (name: string) =>
  z.string({ required_error: `${name} is required` }).regex(PUBLIC_ID_PATTERN, `Invalid ${name.toLowerCase()}`);

const createSchema = z.object({
  orderId: idField("Order id"),
  productId: idField("Product id"),
  productOptionId: idField("Product option id"),
  stars: starsField.openapi({ description: "1 to 5", example: 5 }),
  message: feedbackMessageField.openapi({ description: "plain text, stored as given; clients escape it when shown" }),
});
const listSchema = z.object({
  page: z.coerce.number().int("Page must be a whole number").min(1, "Page starts at 1").max(100_000).default(1),
  search: z.string().max(200, "Search is too long").optional().default(""),
  sortBy: z.enum(["updatedAt", "createdAt"]).optional().default("updatedAt"),
  productId: z
    .string()
    .regex(PUBLIC_ID_PATTERN, "Invalid product id")
    .optional()
    .or(z.literal("").transform(() => undefined))
    .openapi({ description: "only this product's feedback; empty or absent for all" }),
});
const mineSchema = z.object({ orderId: idField("Order id") });

const FEEDBACK = ["Feedback"];

export const feedbackRoutes = apiRouter()
  .openapi(
    declareRoute(FEEDBACK, {
      method: "post",
      path: "/readPublic",
      summary: `Public feedback, newest first, ${FEEDBACK_PAGE_SIZE} a page`,
      description:
        "Only feedback the operator has not hidden, on products still sold. `search` matches part of the message " +
        "or the product's title, case-insensitively. Authors are never named.",
      request: { body: jsonBody(listSchema) },
      responses: answers(200, feedbackPageSchema, "a page of feedback", BAD_INPUT),
    }),
    async (c) => ok(c, await listPublicFeedback(c.get("db"), c.req.valid("json"))),
  )
  .openapi(
    signedInRoute(FEEDBACK, {
      method: "post",
      path: "/create",
      summary: "Rate a product received in one of the customer's orders; posting again edits that feedback",
      request: { body: jsonBody(createSchema) },
      responses: answers(201, publicFeedbackSchema, "the feedback, new (201) or edited (200)", {
        ...BAD_INPUT,
        401: `not signed in: \`${REGISTER_TO_LEAVE_FEEDBACK}\``,
        403: "not a product the customer received in that order (not bought, another's order, not delivered)",
        429: "more than 10 feedback posts a minute",
      }),
    }),
    async (c) => {
      const user = c.get("user");
      if (!user) throw unauthorized(REGISTER_TO_LEAVE_FEEDBACK);
      const { feedback, created } = await saveFeedback(depsOf(c), { userId: user.id, ...c.req.valid("json") });
      return created
        ? ok(c, feedback, FEEDBACK_MESSAGES.created, 201)
        : ok(c, feedback, FEEDBACK_MESSAGES.updated, 200);
    },
  )
  .openapi(
    signedInRoute(FEEDBACK, {
      method: "post",
      path: "/readMine",
      summary: "The customer's own feedback on one of their orders, for the order page's forms",
      request: { body: jsonBody(mineSchema) },
      responses: answers(200, ownFeedbackListSchema, "one entry per rated line", {
        ...SIGNED_IN_FAILURES,
        404: "`Order not found`: unknown or another customer's",
      }),
    }),
    async (c) => {
      return ok(c, await listOwnFeedbackForOrder(c.get("db"), requireUser(c).id, c.req.valid("json").orderId));
    },
  );
