import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { newId } from "../../db/ids";
import { ticketLinks } from "../../db/schema";

/*
 * The links that open a guest's conversation (ADR 039). A token is 128 random bits (22 base64url characters, the
 * shape of a public id, so the access log's scrubbing takes it out of paths); only its SHA-256 hash is stored.
 * Each mail gets a fresh one, since the store cannot mail a token it no longer knows; the older ones keep working.
 */

export function ticketLinkHash(token: string): string {
  return createHash("sha256").update(`ticket-link:${token}`).digest("hex");
}

/** A new link for the ticket: answers the token, which only the mail being written will hold. */
export async function issueTicketLink(db: Executor, ticketId: string): Promise<string> {
  const token = newId();
  await db.insert(ticketLinks).values({ ticketId, tokenHash: ticketLinkHash(token) });
  return token;
}

/** The ticket a token opens, or null. */
export async function ticketIdOfLink(db: Executor, token: string): Promise<string | null> {
  const [row] = await db
    .select({ ticketId: ticketLinks.ticketId })
    .from(ticketLinks)
    .where(eq(ticketLinks.tokenHash, ticketLinkHash(token)));
  return row?.ticketId ?? null;
}

export function contactUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/contact/${encodeURIComponent(token)}`;
}
