import type { RouteConfig } from "@hono/zod-openapi";
import type { ZodTypeAny } from "zod";
import type { Api } from "../../api/app";

/*
 * The /v1 contract, checked on every answer an API test receives (issue 27): an answer whose status the route
 * declares must be exactly what the declared schema describes: nothing missing, nothing of another type, and no
 * field the schema does not name (zod would drop it silently, and a page would never see the drift). One check,
 * called by the test clients of tests/support/api.ts and tests/support/shop.ts, so every API test takes part.
 */

type Declared = { method: string; path: string; pattern: RegExp; responses: RouteConfig["responses"] };
const declaredByApi = new WeakMap<Api, Declared[]>();

function declaredOf(api: Api): Declared[] {
  let declared = declaredByApi.get(api);
  if (!declared) {
    declared = api.declaredRoutes().map((route) => {
      // The registry holds paths under the /v1 base; `/order/{orderId}` matches one segment where the braces are.
      const path = `/v1${route.path}`;
      const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
      return {
        method: route.method.toUpperCase(),
        path,
        pattern: new RegExp(`^${pattern}$`),
        responses: route.responses,
      };
    });
    declaredByApi.set(api, declared);
  }
  return declared;
}

/** The first place where `actual` differs from `expected`, as a dotted path, or undefined when they are equal. */
function firstDifference(expected: unknown, actual: unknown, at = "body"): string | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (typeof expected !== "object" || typeof actual !== "object" || expected === null || actual === null) {
    return `${at}: declared ${JSON.stringify(expected)}, answered ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) return `${at}: an array on one side only`;
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    if (!(key in (expected as object))) return `${at}.${key}: answered, but the declaration does not name it`;
    if (!(key in (actual as object))) return `${at}.${key}: declared, but not answered`;
    const inner = firstDifference(
      (expected as Record<string, unknown>)[key],
      (actual as Record<string, unknown>)[key],
      `${at}.${key}`,
    );
    if (inner) return inner;
  }
  return undefined;
}

/** Throws when an answer breaks its route's declaration; answers the route did not declare are left alone. */
export function checkAnswer(api: Api, method: string, url: string, status: number, body: unknown): void {
  const pathname = new URL(url, "http://store.test").pathname;
  const route = declaredOf(api).find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
  const declared = route?.responses[status] as { content?: Record<string, { schema?: unknown }> } | undefined;
  const schema = declared?.content?.["application/json"]?.schema as ZodTypeAny | undefined;
  // Routes declare zod schemas (from @hono/zod-openapi's own copy of zod, so not `instanceof` ours).
  if (!route || typeof schema?.safeParse !== "function") return;
  const parsed = schema.safeParse(body);
  const problem = parsed.success
    ? firstDifference(parsed.data, body)
    : parsed.error.issues.map((issue) => `body.${issue.path.join(".")}: ${issue.message}`).join("; ");
  if (problem) {
    throw new Error(`${method} ${route.path} answered ${status} outside its declared schema: ${problem}`);
  }
}
