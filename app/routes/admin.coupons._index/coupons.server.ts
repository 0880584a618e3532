import type { AppLoadContext } from "@remix-run/node";
import { couponPageSchema } from "../../../contract/answers/admin-coupons";
import { type ListParams, readListPage } from "~/lib/admin-list.server";

/* The coupons list's /v1 client (ADR 026). */

export function listCoupons(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/coupons", query, answer: couponPageSchema });
}
