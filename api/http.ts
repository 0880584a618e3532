import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiEnv } from "./context";

/** The success envelope of every /v1 answer. */
export function ok<T>(c: Context<ApiEnv>, payload: T, message = "OK", status: ContentfulStatusCode = 200) {
  return c.json({ success: true as const, message, payload }, status);
}

/** A whole success envelope, encoded once so a cached answer costs no work per request. */
export function encodeOk(payload: unknown, message = "OK"): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ success: true, message, payload }));
}

/** Answers an envelope made by encodeOk. */
export function okEncoded(c: Context<ApiEnv>, body: Uint8Array) {
  return c.body(body as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/json; charset=UTF-8" });
}
