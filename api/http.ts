import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiEnv } from "./context";

declare const answeredPayload: unique symbol;

/**
 * A success answer carrying a `T`: at run time a plain Response. The type lets a route's declared answer
 * schema check its handler (ApiRouter in api/openapi.ts): a handler answering another shape fails the typecheck.
 */
export type Answered<T> = Response & { readonly [answeredPayload]: T };

/** A success envelope encoded once (encodeOk), still carrying the type of its payload. */
export type EncodedAnswer<T> = Uint8Array & { readonly [answeredPayload]: T };

/** The success envelope of every /v1 answer. */
export function ok<T>(c: Context<ApiEnv>, payload: T, message = "OK", status: ContentfulStatusCode = 200): Answered<T> {
  return c.json({ success: true as const, message, payload }, status) as unknown as Answered<T>;
}

/** A whole success envelope, encoded once so a cached answer costs no work per request. */
export function encodeOk<T>(payload: T, message = "OK"): EncodedAnswer<T> {
  return new TextEncoder().encode(JSON.stringify({ success: true, message, payload })) as EncodedAnswer<T>;
}

/** Answers an envelope made by encodeOk. */
export function okEncoded<T>(c: Context<ApiEnv>, body: EncodedAnswer<T>): Answered<T> {
  const headers = { "content-type": "application/json; charset=UTF-8" };
  return c.body(body as Uint8Array as Uint8Array<ArrayBuffer>, 200, headers) as unknown as Answered<T>;
}
