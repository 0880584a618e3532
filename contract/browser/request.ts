/* Request statuses that pages need in the browser: no zod here (ADR 032); the schemas are in ../request.ts. */

/** A replacement or other request waits for staff (pending), was answered (completed) or refused (rejected). */
export const REQUEST_STATUSES = ["pending", "completed", "rejected"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A request asks for a replacement of a credential under warranty, or is another question about an order line. */
export const REQUEST_KINDS = ["replacement", "other"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
