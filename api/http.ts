import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { ApiEnv } from "./context";
import { badRequest } from "./errors";

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

function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** Validates a value with a schema; a failure is a 400 naming each bad field. */
export function validate<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = fieldErrors(result.error);
    const first = Object.entries(errors)[0];
    throw badRequest(first ? `${first[0] === "_" ? "Request" : first[0]}: ${first[1][0]}` : "Invalid request", errors);
  }
  return result.data;
}

/** Reads a JSON body; a missing or malformed body is a 400, not a 500. */
export async function jsonBody<S extends z.ZodTypeAny>(c: Context<ApiEnv>, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw badRequest("The request body must be valid JSON");
  }
  return validate(schema, body);
}
