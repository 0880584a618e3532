import { count, eq } from "drizzle-orm";
import type { Executor } from "../db/client";
import { requests, tickets } from "../db/schema";

/** What is waiting for staff: open tickets and pending replacement or other requests. */
export async function waitingForStaff(db: Executor): Promise<{ openTickets: number; pendingRequests: number }> {
  const [[ticketCount], [requestCount]] = await Promise.all([
    db.select({ value: count() }).from(tickets).where(eq(tickets.status, "open")),
    db.select({ value: count() }).from(requests).where(eq(requests.status, "pending")),
  ]);
  return { openTickets: Number(ticketCount.value), pendingRequests: Number(requestCount.value) };
}
