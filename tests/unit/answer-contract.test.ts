import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../api/logger";
import { ok } from "../../api/http";
import { answers, apiRouter } from "../../api/openapi";
import { ApiUnavailableError, apiCall } from "../../app/lib/api.server";

/*
 * The answer contract from both ends (issue 27). A route's handler is typed by the answer schema it declares, so
 * `npm run typecheck` fails when a handler answers another shape: the `@ts-expect-error` lines below are the proof
 * (without the typing they would be unused, which tsc reports as an error). On the page side, answers of this
 * process are not validated again, and answers of a remote /v1 are.
 */

const greetingSchema = z.object({ name: z.string(), visits: z.number().int() });
const greetingRoute = createRoute({
  method: "get",
  path: "/greeting",
  responses: answers(200, greetingSchema, "a greeting"),
});

describe("a route's declared answer types its handler", () => {
  it("accepts the declared shape and refuses others at typecheck", () => {
    apiRouter().openapi(greetingRoute, (c) => ok(c, { name: "Ann", visits: 2 }));
    // @ts-expect-error: visits is a number in the declaration
    apiRouter().openapi(greetingRoute, (c) => ok(c, { name: "Ann", visits: "2" }));
    // @ts-expect-error: name is missing
    apiRouter().openapi(greetingRoute, async (c) => ok(c, { visits: 2 }));
    // @ts-expect-error: a handler answers through ok(), never a bare Response
    apiRouter().openapi(greetingRoute, (c) => c.json({ anything: true }));
    expect(greetingSchema.safeParse({ name: "Ann", visits: 2 }).success).toBe(true);
  });
});

function pageContext(trustsApiAnswers: boolean, answer: unknown): AppLoadContext {
  return {
    cspNonce: "",
    callApi: async () => Response.json(answer),
    requestId: "answer-contract-test",
    logger: createLogger("error"),
    settings: { sessionSecrets: ["unused"], servedOverHttps: false, inlineStylesheet: null, trustsApiAnswers },
  };
}

describe("apiCall with a route's answer schema", () => {
  const drifted = { success: true, message: "OK", payload: { name: "Ann", visits: "two" } };

  it("takes this process's answer as the API tests proved it, without parsing it again", async () => {
    const result = await apiCall(pageContext(true, drifted), { path: "/v1/greeting", answer: greetingSchema });
    expect(result).toMatchObject({ ok: true, payload: { name: "Ann", visits: "two" } });
  });

  it("validates a remote /v1's answer (API_URL), and refuses one that drifted", async () => {
    const call = apiCall(pageContext(false, drifted), { path: "/v1/greeting", answer: greetingSchema });
    await expect(call).rejects.toBeInstanceOf(ApiUnavailableError);
    const good = { success: true, message: "OK", payload: { name: "Ann", visits: 2 } };
    const result = await apiCall(pageContext(false, good), { path: "/v1/greeting", answer: greetingSchema });
    expect(result).toMatchObject({ ok: true, payload: { name: "Ann", visits: 2 } });
  });
});

describe("the page clients", () => {
  it("restate no answer schema: every /v1 client in app/lib reads its answers from contract/answers", () => {
    const folder = path.join(import.meta.dirname, "../../app/lib");
    const clients = readdirSync(folder).filter((name) => name.endsWith(".server.ts") && name !== "api.server.ts");
    expect(clients.length).toBeGreaterThan(20);
    for (const name of clients) {
      const source = readFileSync(path.join(folder, name), "utf8");
      expect(source, name).not.toMatch(/\bz\.(object|array|enum|union|discriminatedUnion)\(/);
      expect(source, name).not.toMatch(/\bpayload:\s*[a-zA-Z]+Schema\b/);
    }
  });
});
