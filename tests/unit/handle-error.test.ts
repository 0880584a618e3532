import type { AppLoadContext } from "@remix-run/node";
import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "@remix-run/router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, withFields } from "../../api/logger";
import { handleError } from "../../app/entry.server";

let written: string[];
beforeEach(() => {
  written = [];
  for (const stream of ["stdout", "stderr"] as const) {
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const REQUEST_ID = "3f0c9a7e-page-request-id";

function pageContext(): AppLoadContext {
  return {
    cspNonce: "",
    callApi: async () => new Response(null, { status: 204 }),
    requestId: REQUEST_ID,
    logger: withFields(createLogger("info"), { requestId: REQUEST_ID }),
    settings: { sessionSecrets: ["unused"], servedOverHttps: false, inlineStylesheet: null, trustsApiAnswers: false },
  };
}

/** A sign-in post whose address and body carry personal data that must stay out of the log. */
function signInPost(signal?: AbortSignal) {
  return new Request("http://localhost/login?email=ann%40example.com&id=ORDER-SECRET-ID", {
    method: "POST",
    body: new URLSearchParams({ username: "ann@example.com", password: "hunter2-password" }),
    signal,
  });
}

describe("handleError (entry.server.tsx)", () => {
  it("writes one JSON error line with the page request's id, the error's class and message, and no personal data", () => {
    handleError(new TypeError("profile answer had no username"), {
      request: signInPost(),
      params: {},
      context: pageContext(),
    });
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]);
    expect(line).toMatchObject({
      level: "error",
      message: "page error",
      requestId: REQUEST_ID,
      method: "POST",
      path: "/login",
      error: { name: "TypeError", message: "profile answer had no username" },
    });
    for (const secret of ["ann@example.com", "ann%40example.com", "ORDER-SECRET-ID", "hunter2-password"]) {
      expect(written[0]).not.toContain(secret);
    }
  });

  it("keeps an order id out of the line when the error's message names an API path", () => {
    const orderId = "Q2hlY2tvdXQtb3JkZXItMQ";
    handleError(new Error(`/v1/order/read/${orderId} answered 500`), {
      request: new Request(`http://localhost/pay/sandbox/${orderId}`),
      params: {},
      context: pageContext(),
    });
    const line = JSON.parse(written[0]);
    expect(line.error.message).toBe("/v1/order/read/[id] answered 500");
    expect(line.path).toBe("/pay/sandbox/[id]");
    expect(written[0]).not.toContain(orderId);
    expect(line.error.stack).toMatch(/^\s*at /);
  });

  it("says nothing of a thrown value that is not an Error", () => {
    handleError("ann@example.com broke it", { request: signInPost(), params: {}, context: pageContext() });
    const line = JSON.parse(written[0]);
    expect(line.error).toEqual({ name: "string" });
    expect(written[0]).not.toContain("ann@example.com");
  });

  it.each([
    ["POST", "/admin/audit", 405, 'You made a POST request to "/admin/audit" but did not provide an `action`'],
    ["POST", "//v1/cart/quote", 404, 'No route matches URL "//v1/cart/quote"'],
    ["POST", "/V1/CART/QUOTE", 405, 'You made a POST request to "/V1/CART/QUOTE" but did not provide an `action`'],
  ])("logs a refused %s %s (%i) as one info line without a stack (issue 25 item 4)", (method, path, status, why) => {
    // What Remix hands over for its own refusals: an error response with an Error (and its stack) inside.
    const refusal = new ErrorResponseImpl(
      status,
      status === 405 ? "Method Not Allowed" : "Not Found",
      new Error(why),
      true,
    );
    handleError(refusal, {
      request: new Request(`http://localhost${path}`, { method, body: "x" }),
      params: {},
      context: pageContext(),
    });
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]);
    expect(line).toEqual({
      time: expect.any(String),
      level: "info",
      message: "page request refused",
      requestId: REQUEST_ID,
      method,
      path: new URL(`http://localhost${path}`).pathname,
      status,
    });
    expect(written[0]).not.toMatch(/stack|\bat /);
  });

  it("stays quiet when the visitor went away (an aborted request)", () => {
    const controller = new AbortController();
    controller.abort();
    handleError(new Error("aborted render"), {
      request: signInPost(controller.signal),
      params: {},
      context: pageContext(),
    });
    expect(written).toEqual([]);
  });
});
