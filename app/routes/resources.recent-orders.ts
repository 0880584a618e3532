import type { LoaderFunctionArgs } from "@remix-run/node";
import { recentOrders } from "~/lib/recent-orders.server";

/** Polled by the recent-purchases toast, so the browser never calls /v1 itself. */
export async function loader({ context }: LoaderFunctionArgs) {
  return Response.json({ orders: await recentOrders(context) }, { headers: { "Cache-Control": "no-store" } });
}
