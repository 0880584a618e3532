import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { apiCall } from "./api.server";

const recentOrderSchema = z.object({
  email: z.string(),
  productTitle: z.string(),
  quantity: z.number().int(),
  timeAgo: z.string(),
});
export type RecentOrder = z.infer<typeof recentOrderSchema>;

/** The latest paid orders for the social-proof toast; a failure just means no toast. */
export async function recentOrders(context: AppLoadContext): Promise<RecentOrder[]> {
  try {
    const result = await apiCall(context, { path: "/v1/order/recent", payload: z.array(recentOrderSchema) });
    return result.ok ? result.payload : [];
  } catch {
    return [];
  }
}
