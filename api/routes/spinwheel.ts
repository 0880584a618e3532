import { z } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import {
  slotCouponListSchema,
  spinBalanceSchema,
  spinResultSchema,
  spinSchema,
} from "../../contract/answers/spinwheel";
import { notFound } from "../errors";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import { UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams, signedInRoute } from "../openapi";
import { SPIN_MESSAGES, listSlotCoupons, readSpin, readSpinBalance, spin } from "../services/coupons/daily-slots";

const SLOTS = ["Slots"];

const spinBody = z.object({
  visualResult: z
    .unknown()
    .optional()
    .openapi({ description: "accepted for the spec's client and ignored: the server decides every outcome" }),
});

export const spinwheelRoutes = apiRouter()
  .openapi(
    signedInRoute(SLOTS, {
      method: "get",
      path: "/spins",
      summary: "The spins the customer holds: one accrues every UTC day, at most 3 saved",
      responses: answers(200, spinBalanceSchema, "the spin balance", UNAUTHORIZED),
    }),
    async (c) => ok(c, await readSpinBalance(c.get("db"), requireUser(c).id)),
  )
  .openapi(
    signedInRoute(SLOTS, {
      method: "post",
      path: "/spin",
      summary: "Spend one spin: the server draws the three reels and issues a single-use coupon for the customer",
      description:
        "Each reel stops on a uniform draw among 128 stops; a symbol holds as many stops as its weight. " +
        "The coupon works only for this customer, once, for 7 days.",
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
    signedInRoute(SLOTS, {
      method: "get",
      path: "/spin/{spinId}",
      summary: "One of the customer's spins again: its reels and coupon (for a result page)",
      request: { params: pathParams("spinId") },
      responses: answers(200, spinSchema, "the spin", {
        ...UNAUTHORIZED,
        404: "`Spin not found`: unknown, malformed, or another customer's",
      }),
    }),
    async (c) => {
      const spinId = c.req.param("spinId");
      if (!PUBLIC_ID_PATTERN.test(spinId)) throw notFound(SPIN_MESSAGES.notFound);
      return ok(c, await readSpin(c.get("db"), requireUser(c).id, spinId));
    },
  )
  .openapi(
    signedInRoute(SLOTS, {
      method: "get",
      path: "/coupons",
      summary: "The customer's won coupons that can still be used, the soonest to expire first",
      responses: answers(200, slotCouponListSchema, "unused, unexpired coupons", UNAUTHORIZED),
    }),
    async (c) => ok(c, { records: await listSlotCoupons(c.get("db"), requireUser(c).id) }),
  );
