import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CompressedVariants, compressOnce, preferredCoding, variantHeaders } from "./compressed-variants";
import type { ApiEnv } from "./context";

declare const answeredPayload: unique symbol;

/**
 * A success answer carrying a `T`: at run time a plain Response. The type lets a route's declared answer
 * schema check its handler (ApiRouter in api/openapi.ts): a handler answering another shape fails the typecheck.
 */
export type Answered<T> = Response & { readonly [answeredPayload]: T };

/**
 * A success envelope encoded once (encodeOk), still carrying the type of its payload; its compressed bytes are
 * made once per encoding a client asks for, and kept with it (ADR 058).
 */
export type EncodedAnswer<T> = CompressedVariants & { readonly [answeredPayload]: T };

/** The success envelope of every /v1 answer. */
export function ok<T>(c: Context<ApiEnv>, payload: T, message = "OK", status: ContentfulStatusCode = 200): Answered<T> {
  return c.json({ success: true as const, message, payload }, status) as unknown as Answered<T>;
}

/** A whole success envelope, encoded once so a cached answer costs no work per request. */
export function encodeOk<T>(payload: T, message = "OK"): EncodedAnswer<T> {
  const identity = Buffer.from(JSON.stringify({ success: true, message, payload }), "utf8");
  return new CompressedVariants(identity) as EncodedAnswer<T>;
}

/**
 * Answers an envelope made by encodeOk, in the client's encoding (the in-process UI asks none, and gets the
 * bytes as they are), or 304 when the client already holds these bytes.
 */
export function okEncoded<T>(c: Context<ApiEnv>, answer: EncodedAnswer<T>): Answered<T> {
  const coding = preferredCoding(c.req.header("accept-encoding"));
  const type = { "content-type": "application/json; charset=UTF-8" };
  if (!c.get("snapshots").keepsAnswers) {
    // Snapshots off: these bytes serve this answer only, so they are compressed cheaply and neither kept nor hashed.
    const body = coding === "identity" ? answer.identity : compressOnce(coding, answer.identity);
    const encoding: Record<string, string> = coding === "identity" ? {} : { "content-encoding": coding };
    return c.body(asBody(body), 200, { ...type, ...encoding, vary: "Accept-Encoding" }) as unknown as Answered<T>;
  }
  const headers = variantHeaders(answer, coding);
  if (answer.matches(c.req.header("if-none-match"), coding)) {
    return c.body(null, 304, headers) as unknown as Answered<T>;
  }
  const body = answer.bytes(coding);
  // Hono's compress() leaves an answer that names its Content-Encoding as it is.
  return c.body(asBody(body), 200, { ...headers, ...type }) as unknown as Answered<T>;
}

const asBody = (bytes: Buffer) =>
  new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) as Uint8Array<ArrayBuffer>;
