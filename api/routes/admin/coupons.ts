import { createdOnce } from "../../idempotent-answer";
import { createRoute, z } from "@hono/zod-openapi";
import { COUPONS_PAGE_SIZE, COUPON_SOURCES, couponInputSchema } from "../../../contract/admin-coupons";
import {
  adminCouponSchema,
  couponPageSchema,
  couponProductChoicesSchema,
  deletedCouponSchema,
} from "../../../contract/answers/admin-coupons";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import {
  BAD_INPUT,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  pathParams,
  ONCE_FAILURES,
  idempotencyKeyHeader,
} from "../../openapi";
import {
  ADMIN_COUPON_MESSAGES,
  couponProductChoices,
  createCoupon,
  deactivateCoupon,
  deleteCoupon,
  listCoupons,
  readCoupon,
  updateCoupon,
} from "../../services/admin-coupons";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/coupons (ADR 026): the store's coupons and the slots prizes, for managers and owners.
 * What is saved here is what checkout applies (api/services/coupons.ts); every change is audited.
 */

const ADMIN = ["Back office"];
const FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED, ...STAFF_ONLY };
const COUPON_FAILURES = { ...FAILURES, 404: "no coupon has this id" };

function couponIdOf(id: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(ADMIN_COUPON_MESSAGES.notFound);
  return id;
}

const couponPath = { params: pathParams("couponId") };
const percentOrUsd = (coupon: { kind: string; amount: number }) =>
  coupon.kind === "percent" ? `${coupon.amount}%` : `$${coupon.amount.toFixed(2)}`;

export const couponRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/coupons",
      tags: ADMIN,
      summary: `Coupons of one source, newest first, ${COUPONS_PAGE_SIZE} a page`,
      ...staffRoute("coupons"),
      request: {
        query: z.object({
          page: z.coerce
            .number()
            .int("Page must be a whole number")
            .min(1, "Page starts at 1")
            .max(100_000)
            .default(1)
            .openapi({ param: { name: "page", in: "query" } }),
          search: z
            .string()
            .trim()
            .max(200, "Search is too long")
            .default("")
            .openapi({ param: { name: "search", in: "query" }, description: "part of the code (or owner's email)" }),
          source: z
            .enum(COUPON_SOURCES)
            .default("admin")
            .openapi({ param: { name: "source", in: "query" }, description: "`admin` (default) or `slots` prizes" }),
        }),
      },
      responses: answers(200, couponPageSchema, "a page", FAILURES),
    }),
    async (c) => ok(c, await listCoupons(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/coupons/products",
      tags: ADMIN,
      summary: "The products a coupon can be restricted to (hidden ones too)",
      ...staffRoute("coupons"),
      responses: answers(200, couponProductChoicesSchema, "every product", { ...UNAUTHORIZED, ...STAFF_ONLY }),
    }),
    async (c) => ok(c, await couponProductChoices(c.get("db"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/coupons/{couponId}",
      tags: ADMIN,
      summary: "One coupon",
      ...staffRoute("coupons"),
      request: couponPath,
      responses: answers(200, adminCouponSchema, "the coupon", COUPON_FAILURES),
    }),
    async (c) => ok(c, await readCoupon(c.get("db"), couponIdOf(c.req.valid("param").couponId))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/coupons",
      tags: ADMIN,
      summary: "Create a coupon; audited",
      description:
        "Codes are unique without regard to letter case. `amount` is a whole percent, or USD when `kind` is fixed.",
      ...staffRoute("coupons"),
      request: { headers: idempotencyKeyHeader, body: jsonBody(couponInputSchema) },
      responses: answers(201, adminCouponSchema, "the new coupon", {
        ...FAILURES,
        ...ONCE_FAILURES,
        409: "another coupon has this code (`errors.code`), or the same Idempotency-Key is still in progress",
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const coupon = await createCoupon(c.get("db"), staffActor(c), input);
        return { payload: coupon, message: `Coupon ${coupon.code} created: ${percentOrUsd(coupon)} off` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/coupons/{couponId}",
      tags: ADMIN,
      summary: "Save a coupon (every field); audited",
      description: "Slots prizes cannot be edited. Total uses cannot go below the uses so far.",
      ...staffRoute("coupons"),
      request: { ...couponPath, body: jsonBody(couponInputSchema) },
      responses: answers(200, adminCouponSchema, "the coupon", {
        ...COUPON_FAILURES,
        409: "another coupon has this code (`errors.code`), or it is a slots prize",
      }),
    }),
    async (c) => {
      const couponId = couponIdOf(c.req.valid("param").couponId);
      const coupon = await updateCoupon(c.get("db"), staffActor(c), couponId, c.req.valid("json"));
      return ok(c, coupon, `Coupon ${coupon.code} saved`);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/coupons/{couponId}/deactivate",
      tags: ADMIN,
      summary: "Stop a coupon applying at checkout (slots prizes too); audited",
      ...staffRoute("coupons"),
      request: couponPath,
      responses: answers(200, adminCouponSchema, "the coupon", COUPON_FAILURES),
    }),
    async (c) => {
      const coupon = await deactivateCoupon(c.get("db"), staffActor(c), couponIdOf(c.req.valid("param").couponId));
      return ok(c, coupon, `Coupon ${coupon.code} deactivated`);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/coupons/{couponId}",
      tags: ADMIN,
      summary: "Delete a coupon no order ever used; audited",
      ...staffRoute("coupons"),
      request: couponPath,
      responses: answers(200, deletedCouponSchema, "the deleted coupon's code", {
        ...COUPON_FAILURES,
        409: "an order used it (deactivate it instead), or it is a slots prize",
      }),
    }),
    async (c) => {
      const code = await deleteCoupon(c.get("db"), staffActor(c), couponIdOf(c.req.valid("param").couponId));
      return ok(c, { code }, `Coupon ${code} deleted`);
    },
  );
