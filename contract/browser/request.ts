/* Request statuses that pages need in the browser: no zod here (ADR 032); the schemas are in ../request.ts. */

/** A replacement or other request waits for staff (pending), was answered (completed) or refused (rejected). */
export const REQUEST_STATUSES = ["pending", "completed", "rejected"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
