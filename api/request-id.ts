import { randomUUID } from "node:crypto";

/** An incoming id is kept only in this shape: a proxy's or the web layer's id, never free text in our logs. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,64}$/;

/** A request's id: the well-formed X-Request-Id it came with (from a proxy, or our own pages), or a fresh one. */
export function requestIdFrom(header: string | null | undefined): string {
  return header && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}
