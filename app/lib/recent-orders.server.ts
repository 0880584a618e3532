import type { AppLoadContext } from "@remix-run/node";
import { type RecentOrder, recentOrderListSchema } from "../../contract/answers/order";
import { apiCall } from "./api.server";

export type { RecentOrder };

/** The latest paid orders for the social-proof toast; a failure just means no toast. */
export async function recentOrders(context: AppLoadContext): Promise<RecentOrder[]> {
  try {
    const result = await apiCall(context, { path: "/v1/order/recent", answer: recentOrderListSchema });
    return result.ok ? result.payload : [];
  } catch {
    return [];
  }
}
