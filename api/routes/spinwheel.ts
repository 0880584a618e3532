import { createRoute, z } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { MAX_SAVED_SPINS, REEL_STOPS, SLOT_COUPON_DAYS, SLOT_SYMBOLS } from "../../contract/slots";
import { notFound } from "../errors";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import { UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams, publicIdSchema, signedIn } from "../openapi";
import { SPIN_MESSAGES, listSlotCoupons, readSpin, readSpinBalance, spin } from "../services/slots";

const SLOTS = ["Slots"];

const spinBody = z.object({
  visualResult: z
    .unknown()
    .optional()
    .openapi({ description: "accepted for the spec's client and ignored: the server decides every outcome" }),
});

const symbolIds = SLOT_SYMBOLS.map((symbol) => symbol.id) as [string, ...string[]];
const resultFields = {
  spinId: publicIdSchema,
  stops: z
    .array(z.number().int())
    .openapi({ description: `each reel's stop, 0 to ${REEL_STOPS - 1}, drawn from the one weighted table` }),
  symbols: z.array(z.enum(symbolIds)).openapi({ description: "the symbol at each stop, left to right" }),
  outcome: z
    .enum(["jackpot", "pair", "none"])
    .openapi({ description: "three equal (30%), exactly two equal (15%) or all different (10%)" }),
  discount: z.number().int().openapi({ description: "percent off, the coupon's amount", example: 15 }),
  couponCode: z.string().openapi({ example: "SLOT-7KQ2MX9PAB" }),
  couponExpiresAt: z.string().openapi({ description: `ISO 8601; ${SLOT_COUPON_DAYS} days after the spin` }),
  couponUsed: z.boolean().openapi({ description: "an order (paid, or pending payment) holds its one use" }),
  createdAt: z.string().openapi({ description: "ISO 8601" }),
};
const spinResultSchema = z
  .object({ ...resultFields, spinsRemaining: z.number().int().openapi({ description: "spins left after this one" }) })
  .openapi("SpinResult");
const balanceSchema = z
  .object({
    spinsAvailable: z
      .number()
      .int()
      .openapi({ description: `0 to ${MAX_SAVED_SPINS}` }),
    maxSpins: z.number().int().openapi({ example: MAX_SAVED_SPINS }),
    nextSpinAt: z
      .string()
      .nullable()
      .openapi({ description: "the next UTC midnight, when one more accrues; null when the spins are at the cap" }),
  })
  .openapi("SpinBalance");
const couponSchema = z.object({
  code: z.string(),
  discount: z.number().int().openapi({ description: "percent off" }),
  expiresAt: z.string().openapi({ description: "ISO 8601" }),
});

export const spinwheelRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/spins",
      tags: SLOTS,
      summary: "The spins the customer holds: one accrues every UTC day, at most 3 saved",
      security: signedIn,
      responses: answers(200, balanceSchema, "the spin balance", UNAUTHORIZED),
    }),
    async (c) => ok(c, await readSpinBalance(c.get("db"), requireUser(c).id)),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/spin",
      tags: SLOTS,
      summary: "Spend one spin: the server draws the three reels and issues a single-use coupon for the customer",
      description:
        "Each reel stops on a uniform draw among 128 stops; a symbol holds as many stops as its weight. " +
        "The coupon works only for this customer, once, for 7 days.",
      security: signedIn,
      request: { body: jsonBody(spinBody) },
      responses: answers(201, spinResultSchema, "the drawn reels and the coupon won", {
        ...UNAUTHORIZED,
        409: "`No spins available! You get 1 free spin per day (max 3 accumulated).`",
      }),
    }),
    async (c) => {
      const result = await spin(c.get("db"), requireUser(c).id);
      return ok(c, result, `You won ${result.discount}% off`, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/spin/{spinId}",
      tags: SLOTS,
      summary: "One of the customer's spins again: its reels and coupon (for a result page)",
      security: signedIn,
      request: { params: pathParams("spinId") },
      responses: answers(200, z.object(resultFields).openapi("Spin"), "the spin", {
        ...UNAUTHORIZED,
        404: "`Spin not found`: unknown, malformed, or another customer's",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const spinId = c.req.param("spinId");
      if (!PUBLIC_ID_PATTERN.test(spinId)) throw notFound(SPIN_MESSAGES.notFound);
      return ok(c, await readSpin(c.get("db"), user.id, spinId));
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/coupons",
      tags: SLOTS,
      summary: "The customer's won coupons that can still be used, the soonest to expire first",
      security: signedIn,
      responses: answers(200, z.object({ records: z.array(couponSchema) }), "unused, unexpired coupons", UNAUTHORIZED),
    }),
    async (c) => ok(c, { records: await listSlotCoupons(c.get("db"), requireUser(c).id) }),
  );
