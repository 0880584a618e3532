import type { RouteConfig } from "@hono/zod-openapi";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { ZodTypeAny } from "zod";
import type { Api } from "../../api/app";

/*
 * The /v1 contract, checked on every answer an API test receives (issue 27): an answer whose status the route
 * declares must be exactly what the declared schema describes: nothing missing, nothing of another type, and no
 * field the schema does not name (zod would drop it silently, and a page would never see the drift). One check,
 * called by the test clients of tests/support/api.ts and tests/support/shop.ts, so every API test takes part.
 *
 * The same answer is also validated against the published OpenAPI document (/v1/openapi.json, as generated), and a
 * request's body against what that document declares (issue 38): an outside client validates against the document,
 * not the zod schema, so a gap in the generator (an enum that forgets null, a route that declares no body) fails
 * a test here too.
 */

type Declared = {
  method: string;
  path: string;
  pattern: RegExp;
  responses: RouteConfig["responses"];
  /** The route's operation in the published document. */
  operation: PublishedOperation;
};
type PublishedOperation = {
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
};
const declaredByApi = new WeakMap<Api, Declared[]>();

function declaredOf(api: Api): Declared[] {
  let declared = declaredByApi.get(api);
  if (!declared) {
    const document = api.openApiDocument() as unknown as {
      paths: Record<string, Record<string, PublishedOperation>>;
    };
    declared = api.declaredRoutes().map((route) => {
      // The registry holds paths under the /v1 base; `/order/{orderId}` matches one segment where the braces are.
      const path = `/v1${route.path}`;
      const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
      return {
        method: route.method.toUpperCase(),
        path,
        pattern: new RegExp(`^${pattern}$`),
        responses: route.responses,
        operation: document.paths[path]?.[route.method] ?? {},
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

// Formats (email, uri) are left to zod; the document's `example`s and descriptions are not keywords to check.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const validators = new WeakMap<object, ValidateFunction>();

/** The published schema `schema` (a part of `api`'s document), its `#/components/...` references resolved. */
function publishedValidator(api: Api, schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const { components } = api.openApiDocument() as unknown as { components?: object };
    validate = ajv.compile({ ...schema, components });
    validators.set(schema, validate);
  }
  return validate;
}

function describeAjvErrors(validate: ValidateFunction) {
  return (validate.errors ?? [])
    .map((error) => `body${error.instancePath.replaceAll("/", ".")}: ${error.message} ${JSON.stringify(error.params)}`)
    .join("; ");
}

function routeOf(api: Api, method: string, url: string) {
  const pathname = new URL(url, "http://store.test").pathname;
  return declaredOf(api).find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
}

/**
 * Throws when a test sends a JSON body the published document does not let a client send: a body to a route that
 * declares none, or one outside the declared schema on purpose is the test's own business (bad input is tested),
 * so only the first is refused here.
 */
export function checkRequest(api: Api, method: string, url: string, body: unknown): void {
  if (body === undefined) return;
  const route = routeOf(api, method, url);
  if (route && !route.operation.requestBody?.content?.["application/json"]) {
    throw new Error(`${method} ${route.path} declares no JSON body in /v1/openapi.json, yet a client sends one`);
  }
}

/** Throws when an answer breaks its route's declaration; answers the route did not declare are left alone. */
export function checkAnswer(api: Api, method: string, url: string, status: number, body: unknown): void {
  const route = routeOf(api, method, url);
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
  const published = route.operation.responses?.[String(status)]?.content?.["application/json"]?.schema;
  if (!published) throw new Error(`${method} ${route.path} declares ${status}, but /v1/openapi.json does not`);
  const validate = publishedValidator(api, published);
  if (!validate(body)) {
    throw new Error(
      `${method} ${route.path} answered ${status} outside /v1/openapi.json: ${describeAjvErrors(validate)}`,
    );
  }
}
