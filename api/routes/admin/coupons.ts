import { createdOnce } from "../../idempotent-answer";
import { z } from "@hono/zod-openapi";
import { COUPONS_PAGE_SIZE, COUPON_SOURCES, couponInputSchema } from "../../../contract/admin-coupons";
import {
  adminCouponSchema,
  couponPageSchema,
  couponProductChoicesSchema,
  deletedCouponSchema,
} from "../../../contract/answers/admin-coupons";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { NO_BODY, ONCE_FAILURES, answers, apiRouter, idempotencyKeyHeader, jsonBody, pathParams } from "../../openapi";
import {
  ADMIN_COUPON_MESSAGES,
  couponProductChoices,
  createCoupon,
  deactivateCoupon,
  deleteCoupon,
  listCoupons,
  readCoupon,
  updateCoupon,
} from "../../services/coupons/admin";
import { FAILURES, STAFF_FAILURES, adminRoute, idOf, pageField, searchField } from "./admin-route";

/*
 * /v1/admin/coupons (ADR 026): the store's coupons and the slots prizes, for managers and owners.
 * What is saved here is what checkout applies (api/services/coupons/discounts.ts); every change is audited.
 */

const COUPON_FAILURES = { ...FAILURES, 404: "no coupon has this id" };

const couponPath = { params: pathParams("couponId") };
const percentOrUsd = (coupon: { kind: string; amount: number }) =>
  coupon.kind === "percent" ? `${coupon.amount}%` : `$${coupon.amount.toFixed(2)}`;

export const couponRoutes = apiRouter()
  .openapi(
    adminRoute("coupons", {
      method: "get",
      path: "/coupons",
      summary: `Coupons of one source, newest first, ${COUPONS_PAGE_SIZE} a page`,
      request: {
        query: z.object({
          page: pageField,
          search: searchField("part of the code (or owner's email)"),
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
    adminRoute("coupons", {
      method: "get",
      path: "/coupons/products",
      summary: "The products a coupon can be restricted to (hidden ones too)",
      responses: answers(200, couponProductChoicesSchema, "every product", STAFF_FAILURES),
    }),
    async (c) => ok(c, await couponProductChoices(c.get("db"))),
  )
  .openapi(
    adminRoute("coupons", {
      method: "get",
      path: "/coupons/{couponId}",
      summary: "One coupon",
      request: couponPath,
      responses: answers(200, adminCouponSchema, "the coupon", COUPON_FAILURES),
    }),
    async (c) =>
      ok(c, await readCoupon(c.get("db"), idOf(c.req.valid("param").couponId, ADMIN_COUPON_MESSAGES.notFound))),
  )
  .openapi(
    adminRoute("coupons", {
      method: "post",
      path: "/coupons",
      summary: "Create a coupon; audited",
      description:
        "Codes are unique without regard to letter case. `amount` is a whole percent, or USD when `kind` is fixed.",
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
    adminRoute("coupons", {
      method: "put",
      path: "/coupons/{couponId}",
      summary: "Save a coupon (every field); audited",
      description: "Slots prizes cannot be edited. Total uses cannot go below the uses so far.",
      request: { ...couponPath, body: jsonBody(couponInputSchema) },
      responses: answers(200, adminCouponSchema, "the coupon", {
        ...COUPON_FAILURES,
        409: "another coupon has this code (`errors.code`), or it is a slots prize",
      }),
    }),
    async (c) => {
      const couponId = idOf(c.req.valid("param").couponId, ADMIN_COUPON_MESSAGES.notFound);
      const coupon = await updateCoupon(c.get("db"), staffActor(c), couponId, c.req.valid("json"));
      return ok(c, coupon, `Coupon ${coupon.code} saved`);
    },
  )
  .openapi(
    adminRoute("coupons", {
      method: "post",
      path: "/coupons/{couponId}/deactivate",
      summary: "Stop a coupon applying at checkout (slots prizes too); audited",
      request: { ...couponPath, body: NO_BODY },
      responses: answers(200, adminCouponSchema, "the coupon", COUPON_FAILURES),
    }),
    async (c) => {
      const coupon = await deactivateCoupon(
        c.get("db"),
        staffActor(c),
        idOf(c.req.valid("param").couponId, ADMIN_COUPON_MESSAGES.notFound),
      );
      return ok(c, coupon, `Coupon ${coupon.code} deactivated`);
    },
  )
  .openapi(
    adminRoute("coupons", {
      method: "delete",
      path: "/coupons/{couponId}",
      summary: "Delete a coupon no order ever used; audited",
      request: couponPath,
      responses: answers(200, deletedCouponSchema, "the deleted coupon's code", {
        ...COUPON_FAILURES,
        409: "an order used it (deactivate it instead), or it is a slots prize",
      }),
    }),
    async (c) => {
      const code = await deleteCoupon(
        c.get("db"),
        staffActor(c),
        idOf(c.req.valid("param").couponId, ADMIN_COUPON_MESSAGES.notFound),
      );
      return ok(c, { code }, `Coupon ${code} deleted`);
    },
  );
