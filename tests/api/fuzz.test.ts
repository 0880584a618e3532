import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApi } from "../../api/app";
import { createLogger } from "../../api/logger";
import { TOO_DEEP } from "../../api/middleware/input";
import type { Schema } from "../../api/reference-page";
import { payments } from "../../api/db/schema";
import { createSession } from "../../api/services/accounts/sessions";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * Every /v1 route, fuzzed from its own declaration in /v1/openapi.json (so routes added later are fuzzed
 * without touching this file): values shaped by the schemas, then broken on purpose (wrong types, missing
 * and extra fields, NUL, lone surrogates, 1 MB strings, injection strings, bad ids), as a signed-in customer
 * and as a guest. Any 5xx or a stack trace in a body fails. Fixed seed; FUZZ_RUNS=20000 for a longer run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

type Parameter = { name: string; in: "path" | "query" | "header"; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const MEGABYTE = "x".repeat(1024 * 1024);
const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "\u001b[31m",
  "\u007f",
  "\u202eevil",
  "😀🏳️‍🌈",
  "' OR '1'='1' --",
  '"; drop table users; --',
  "1; select pg_sleep(5)",
  "$1",
  "%00",
  "%s%s%n",
  "../../../../etc/passwd",
  "<script>alert(1)</script>",
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "null",
  "NaN",
  "-1",
  "1e309",
  "9".repeat(400),
  "a".repeat(70_000),
];

let client: ShopTestApi;
let document: Document;
let customerId: string;
const knownIds: string[] = [];

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "1000" });
  const customer = await createCustomer(client.db, { balanceCents: 100_000 });
  customerId = customer.id;
  const listing = await createListing(client.db, { priceCents: 500, stock: 50 });
  await addToCart(client, customer.token, listing.optionId, 1);
  const order = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
  const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, order.body.payload.orderId));
  await addToCart(client, customer.token, listing.optionId, 2);
  knownIds.push(listing.productId, listing.optionId, order.body.payload.orderId, payment.id);
  document = (await (await client.api.request("/v1/openapi.json")).json()) as Document;
});
afterAll(() => client.close());

function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(document.components?.schemas?.[schema.$ref.split("/").pop()!]);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map(resolve), { allOf: undefined });
  return schema;
}

/** Characters no text field takes: C0 controls, DEL, halves of a surrogate pair (NUL most: PostgreSQL refuses it). */
const REFUSED_CHARACTERS = [
  "\u0000",
  "\u0000",
  "\u0000",
  "\u0001",
  "\u0008",
  "\u000b",
  "\u001f",
  "\u007f",
  "\uD800",
  "\uDBFF",
  "\uDC00",
];
const oddString = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...REFUSED_CHARACTERS), fc.string({ maxLength: 8 }))
        .map((parts) => parts.join("")),
    },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constant(MEGABYTE) },
  );
const idString = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...knownIds) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
    { weight: 1, arbitrary: oddString() },
  );
/** Anything at all, for a field that should have had another type. */
const wrongValue = () =>
  fc.oneof(
    fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -0, [], {}, [[]], { $gt: "" }),
    oddString(),
    fc.anything({ maxDepth: 2 }),
  );

/**
 * Values for a schema. `wild`: any part may be broken (wrong type, odd string, missing, extra fields);
 * otherwise a well-formed value, so requests also get past validation into the services.
 */
function valueFor(schemaOrRef: Schema | undefined, wild: boolean, depth = 0): fc.Arbitrary<unknown> {
  const shape = shaped(resolve(schemaOrRef), wild, depth);
  return wild ? fc.oneof({ weight: 5, arbitrary: shape }, { weight: 1, arbitrary: wrongValue() }) : shape;
}

function shaped(schema: Schema, wild: boolean, depth: number): fc.Arbitrary<unknown> {
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return fc.oneof(...options.map((option) => valueFor(option, wild, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const maybeOdd = <T>(arbitrary: fc.Arbitrary<T>) => (wild ? fc.oneof(arbitrary, oddString()) : arbitrary);
  if (schema.enum) return maybeOdd(fc.constantFrom(...schema.enum));
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== "null") : schema.type;
  switch (type) {
    case "string":
      if (schema.pattern?.includes("{22}")) return wild ? idString() : fc.constantFrom(...knownIds);
      if (schema.format === "email") return maybeOdd(fc.emailAddress());
      return maybeOdd(fc.string({ maxLength: Math.min(schema.maxLength ?? 30, 30) }));
    case "integer": {
      const inRange = fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
      return wild ? fc.oneof(inRange, fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1.5, 1e20)) : inRange;
    }
    case "number": {
      const inRange = fc.double({ noNaN: true, min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1e4, 1e4) });
      return wild ? fc.oneof(inRange, fc.constantFrom(0, 0.001, 1e308, -1e308)) : inRange;
    }
    case "boolean":
      return wild ? fc.oneof(fc.boolean(), fc.constantFrom("true", 1)) : fc.boolean();
    case "array": {
      if (depth > 3) return fc.constant([]);
      const items = valueFor(schema.items, wild, depth + 1);
      if (!wild) return fc.array(items, { maxLength: 4 });
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(items, { maxLength: 4 }) },
        { weight: 1, arbitrary: fc.array(items, { minLength: 51, maxLength: 60 }) },
      );
    }
    case "object": {
      if (depth > 3) return fc.constant({});
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [key, valueFor(property, wild, depth + 1)]),
      );
      if (!wild) return fc.record(properties, { requiredKeys: schema.required ?? [] });
      // Any field may be missing and a few unknown ones may come along.
      return fc
        .tuple(
          fc.record(properties, { requiredKeys: [] }),
          fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), oddString()), wrongValue(), { maxKeys: 2 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
    }
    default:
      return wild ? wrongValue() : fc.constant(null);
  }
}

/** A well-formed value with exactly one top-level field replaced by something odd. */
function oneFieldBroken(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const odd = fc.oneof({ weight: 3, arbitrary: oddString() }, { weight: 1, arbitrary: wrongValue() });
  return fc.tuple(valueFor(schema, false), fc.nat(), odd).map(([value, index, odd]) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return odd;
    const keys = Object.keys(resolve(schema).properties ?? {});
    return keys.length ? { ...value, [keys[index % keys.length]]: odd } : value;
  });
}

/** A well-formed value with a refused character inside one of its strings, however deep. */
function oneStringPoisoned(schema: Schema | undefined): fc.Arbitrary<unknown> {
  return fc
    .tuple(valueFor(schema, false), fc.nat(), fc.constantFrom(...REFUSED_CHARACTERS))
    .map(([value, index, character]) => {
      let seen = 0;
      const strings = countStrings(value);
      const poison = (inner: unknown): unknown => {
        if (typeof inner === "string") return seen++ === index % strings ? `${inner}${character}${inner}` : inner;
        if (Array.isArray(inner)) return inner.map(poison);
        if (inner !== null && typeof inner === "object")
          return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, poison(item)]));
        return inner;
      };
      return strings === 0 ? character : poison(value);
    });
}

function countStrings(value: unknown): number {
  if (typeof value === "string") return 1;
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((total: number, item) => total + countStrings(item), 0);
}

/** Any value for a request part: well-formed, one field broken, one string poisoned, or broken anywhere. */
function fuzzed(schema: Schema | undefined): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: valueFor(schema, false) },
    { weight: 3, arbitrary: oneFieldBroken(schema) },
    { weight: 2, arbitrary: oneStringPoisoned(schema) },
    { weight: 2, arbitrary: valueFor(schema, true) },
  );
}

/** A path segment as a client could send it (a lone surrogate cannot be percent-encoded as UTF-8). */
function pathSegment(value: unknown): string {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return "%ED%A0%80";
  }
}

type FuzzRequest = { method: string; url: string; body?: string; headers: Record<string, string>; signedIn: boolean };

function requestFor(path: string, method: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const byPlace = (place: Parameter["in"]) =>
    fc.record(Object.fromEntries(parameters.filter((p) => p.in === place).map((p) => [p.name, fuzzed(p.schema)])), {
      requiredKeys: place === "path" ? undefined : [],
    });
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  const body = bodySchema
    ? fc.oneof(
        { weight: 8, arbitrary: fuzzed(bodySchema).map((value) => JSON.stringify(value) ?? "") },
        { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,", "nul", '{"a":1}garbage', "\u0000", MEGABYTE) },
      )
    : method === "get"
      ? fc.constant(undefined)
      : fc.option(fc.constantFrom("{}", "not json", '{"x":1}'), { nil: undefined });
  return fc
    .record({
      path: byPlace("path"),
      query: byPlace("query"),
      headers: byPlace("header"),
      body,
      signedIn: fc.boolean(),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant("application/json") },
        { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", undefined) },
      ),
    })
    .map(({ path: pathValues, query, headers, body, signedIn, contentType }) => {
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => pathSegment(pathValues[name]));
      const search = new URLSearchParams(
        Object.entries(query).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]),
      ).toString();
      const headerValues: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        // fetch refuses header values with control characters or non-Latin-1 text before any server sees them.
        const text = String(value);
        if (/^[\x20-\x7e]*$/.test(text)) headerValues[name] = text;
      }
      if (body !== undefined && contentType) headerValues["content-type"] = contentType;
      return {
        method: method.toUpperCase(),
        url: search ? `${filled}?${search}` : filled,
        body,
        headers: headerValues,
        signedIn,
      };
    });
}

const STACK_TRACE = /\n\s+at \S|node_modules|\/work\/|\.ts:\d+/;

describe("fuzzing every /v1 route from its OpenAPI declaration", () => {
  it(`never answers 5xx or a stack trace (${RUNS} requests, seed ${SEED})`, { timeout: 600_000 }, async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(30);
    const anyRequest = fc.oneof(
      ...operations.map(({ path, method, operation }) => requestFor(path, method, operation)),
    );
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(anyRequest, async (request) => {
        const headers = { ...request.headers };
        // A fresh session each time: a fuzzed logout or password change must not end the others.
        if (request.signedIn) headers.authorization = `Bearer ${await createSession(client.db, customerId)}`;
        const response = await client.api.request(
          request.url,
          { method: request.method, headers, body: request.body },
          { clientIp: "198.51.100.7" },
        );
        const text = await response.text();
        const shown = `${request.method} ${request.url.slice(0, 200)} -> ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, shown).toBeLessThan(500);
        expect(text, shown).not.toMatch(STACK_TRACE);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.info(
      `fuzz: ${RUNS} requests over ${operations.length} operations in ${Math.round(performance.now() - started)} ms`,
    );
  });
});

/** `[[[…]]]` or `{"a":{"a":…}}`, `depth` levels deep, built as text (JSON.stringify itself recurses). */
function nested(kind: "array" | "object", depth: number): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

describe("deeply nested JSON on every /v1 route that takes a body (issue 25 item 1)", () => {
  it("answers 400 naming the depth past 32 levels, never a 500, and logs no stack", { timeout: 300_000 }, async () => {
    // The same API with a logger that writes, so its lines can be read.
    const api = createApi({ ...client.deps, logger: createLogger("debug") });
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => method !== "get")
        .map((method) => ({
          method: method.toUpperCase(),
          path: path.replace("{gateway}", "stripe").replace(/\{[^}]+\}/g, knownIds[2]),
        })),
    );
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.map(({ path }) => path)).toEqual(expect.arrayContaining(["/v1/webhooks/stripe"]));
    const written: string[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    }
    const failures: string[] = [];
    try {
      for (const { method, path } of operations) {
        for (const kind of ["array", "object"] as const) {
          for (const depth of [10, 1000, 100_000]) {
            for (const signedIn of [false, true]) {
              const headers: Record<string, string> = { "content-type": "application/json" };
              if (signedIn) headers.authorization = `Bearer ${await createSession(client.db, customerId)}`;
              const response = await api.request(
                path,
                { method, headers, body: nested(kind, depth) },
                { clientIp: "198.51.100.8" },
              );
              const body = (await response.json()) as { message?: string };
              const shown = `${method} ${path} ${kind} ${depth} ${signedIn ? "signed in" : "guest"} -> ${response.status} ${body.message}`;
              if (response.status >= 500) failures.push(shown);
              if (depth > 32 && (response.status !== 400 || body.message !== TOO_DEEP)) failures.push(shown);
            }
          }
        }
      }
    } finally {
      vi.restoreAllMocks();
    }
    expect(failures).toEqual([]);
    const withStack = written.filter((line) => /"stack"|\\n\s+at /.test(line));
    expect(withStack).toEqual([]);
  });
});

describe("the nesting bound counts arrays and objects, not brackets in text", () => {
  it("takes a string full of brackets and escaped quotes, and 32 levels", async () => {
    const brackets = JSON.stringify({ username: `"[{`.repeat(200), password: "x" });
    const inText = await client.api.request("/v1/user/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: brackets,
    });
    expect(((await inText.json()) as { message: string }).message).not.toBe(TOO_DEEP);
    const atTheBound = await client.api.request("/v1/cart/quote", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"cartItems":[],"x":${nested("array", 31)}}`,
    });
    expect(((await atTheBound.json()) as { message: string }).message).not.toBe(TOO_DEEP);
    const pastIt = await client.api.request("/v1/cart/quote", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"cartItems":[],"x":${nested("array", 32)}}`,
    });
    expect(pastIt.status).toBe(400);
    expect(((await pastIt.json()) as { message: string }).message).toBe(TOO_DEEP);
  });
});
