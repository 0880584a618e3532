import { type APIRequestContext, expect } from "@playwright/test";

export type Envelope<T> = { success: boolean; message: string; payload: T };

/** A /v1 call from a browser spec's request context; anything but a 2xx fails the test with the API's message. */
export async function call<T>(
  request: APIRequestContext,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  token?: string,
) {
  const response = await request.fetch(path, {
    method,
    data: body,
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
  });
  const json = (await response.json()) as Envelope<T>;
  expect(response.ok(), `${method} ${path}: ${json.message}`).toBe(true);
  return json.payload;
}
