import { type Hook, OpenAPIHono, type RouteConfig, createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { PUBLIC_ID_PATTERN } from "../contract/ids";
import type { ApiEnv } from "./context";
import { badRequest } from "./errors";
import type { Answered } from "./http";
import { IDEMPOTENCY_HEADER } from "./idempotent-answer";

/*
 * What every /v1 route module builds on: one router factory whose validation failures answer our
 * envelope, and the pieces of the OpenAPI document (envelope, errors, ids) the routes share.
 */

/** Each bad field (dotted path, "_" for the whole value) with its messages, in the order zod found them. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[issue.path.join(".") || "_"] ??= []).push(issue.message);
  return errors;
}

/** 400 naming the first bad field: `cartItems.0.quantity: Quantity must be at least 1`. */
export const fieldNamedFailure: Hook<unknown, ApiEnv, string, void> = (result) => {
  if (result.success) return;
  const errors = fieldErrors(result.error);
  const [field, messages] = Object.entries(errors)[0];
  throw badRequest(`${field === "_" ? "Request" : field}: ${messages[0]}`, errors);
};

/** 400 with the first message alone: the account forms show whole sentences next to their field. */
export const sentenceFailure: Hook<unknown, ApiEnv, string, void> = (result) => {
  if (result.success) return;
  throw badRequest(result.error.issues[0].message, fieldErrors(result.error));
};

type JsonSchemaOf<R extends RouteConfig> = R["request"] extends {
  body?: { content: { "application/json": { schema: infer S extends z.ZodTypeAny } } };
}
  ? S
  : never;
type PartOf<R extends RouteConfig, Part extends "params" | "query" | "headers"> = R["request"] extends {
  [K in Part]?: infer S extends z.ZodTypeAny;
}
  ? S
  : never;
type Validated<Target extends string, S extends z.ZodTypeAny> = [S] extends [never]
  ? object
  : { in: { [K in Target]: z.input<S> }; out: { [K in Target]: z.output<S> } };

declare const declaredPayload: unique symbol;

/** A route's `responses` as `answers()` builds them, remembering the success payload's schema for the handler's type. */
export type DeclaredAnswers<S extends z.ZodTypeAny> = RouteConfig["responses"] & { readonly [declaredPayload]?: S };

type PayloadOf<R extends RouteConfig> = R["responses"] extends { readonly [declaredPayload]?: infer S }
  ? S extends z.ZodTypeAny
    ? S
    : never
  : never;

/** What a handler must answer: its route's declared payload (through `ok()`), or any Response for an undeclared one. */
export type RouteAnswer<R extends RouteConfig> = [PayloadOf<R>] extends [never]
  ? Response
  : Answered<z.input<PayloadOf<R>>>;

/** `/remove/{optionId}` as Hono writes it, `/remove/:optionId`, so `c.req.param("optionId")` is a string. */
type HonoPath<P extends string> = P extends `${infer Head}{${infer Name}}${infer Tail}`
  ? `${Head}:${Name}${HonoPath<Tail>}`
  : P;

/** What `c.req.valid(...)` gives a route's handler: its parsed body, path parameters, query and headers. */
export type RouteInput<R extends RouteConfig> = Validated<"json", JsonSchemaOf<R>> &
  Validated<"param", PartOf<R, "params">> &
  Validated<"query", PartOf<R, "query">> &
  Validated<"header", PartOf<R, "headers">>;

/**
 * A /v1 router as the route modules see it. Each `.openapi()` answers the same router type: Hono's own
 * accumulates every route into the router's type (for its RPC client, which we do not use), and checking
 * those chains cost most of `npm run typecheck`'s time and memory.
 */
export interface ApiRouter {
  openapi<R extends RouteConfig>(
    route: R,
    handler: (c: Context<ApiEnv, HonoPath<R["path"]>, RouteInput<R>>) => RouteAnswer<R> | Promise<RouteAnswer<R>>,
  ): ApiRouter;
  use(middleware: MiddlewareHandler<ApiEnv>): ApiRouter;
  route(path: string, router: ApiRouter): ApiRouter;
}

/** A router whose declared routes validate their input and document themselves in /v1/openapi.json. */
export function apiRouter(onInvalid = fieldNamedFailure): ApiRouter {
  return new OpenAPIHono<ApiEnv>({ defaultHook: onInvalid }) as unknown as ApiRouter;
}

/** The Hono app behind a router, to mount it (api/app.ts). */
export const honoOf = (router: ApiRouter) => router as unknown as OpenAPIHono<ApiEnv>;

export const BEARER_AUTH = "bearerAuth";
/** The route needs `Authorization: Bearer <token>`; without a valid one it answers 401. */
export const signedIn: Record<string, string[]>[] = [{ [BEARER_AUTH]: [] }];
/** A token is optional: with one the answer is for that customer, without it for a guest. */
export const optionallySignedIn: Record<string, string[]>[] = [{}, { [BEARER_AUTH]: [] }];

/** Who may call a route: its `security` in the reference, and the route middleware that enforces it. */
export type RouteAccess = { security?: Record<string, string[]>[]; middleware?: MiddlewareHandler<ApiEnv>[] };
export type DeclaredRoute = Omit<RouteConfig, "tags" | "security" | "middleware"> & {
  security?: RouteConfig["security"];
};

/**
 * A /v1 route filed under `tags` in the reference, with who may call it. The keys keep the order the
 * reference has always listed them in: tags, summary, description, then access, request and answers.
 */
export function declareRoute<P extends string, R extends DeclaredRoute & { path: P }, A extends RouteAccess>(
  tags: string[],
  route: R,
  access?: A,
) {
  const { method, path, summary, description, ...rest } = route;
  return createRoute({ method, path, tags, summary, description, ...access, ...rest }) as unknown as R & A;
}

/** A route for a signed-in customer (401 without a valid token). */
export const signedInRoute = <P extends string, R extends DeclaredRoute & { path: P }>(tags: string[], route: R) =>
  declareRoute(tags, route, { security: signedIn });

/** A public id in a path, documented by its pattern; the handler checks it and owns the message (a 404). */
export const pathIdSchema = z
  .string()
  .openapi({ pattern: PUBLIC_ID_PATTERN.source, example: "gWwCti4aIQ7vdHgY-vB4_p", description: "a 22-character id" });

/** The path parameter `name`, documented; its pattern is checked by the handler, which owns the message. */
export function pathParams<K extends string>(...names: K[]) {
  return z.object(
    Object.fromEntries(names.map((name) => [name, pathIdSchema.openapi({ param: { name, in: "path" } })])) as Record<
      K,
      typeof pathIdSchema
    >,
  );
}

const failureSchema = z
  .object({
    success: z.literal(false),
    message: z.string().openapi({ description: "a sentence to show as it is" }),
    errors: z
      .record(z.array(z.string()))
      .optional()
      .openapi({ description: "bad fields by dotted path, each with its messages" }),
    humanCheckRequired: z
      .literal(true)
      .optional()
      .openapi({
        description:
          "the next try must carry a human-check answer: a guarded form refused by its check (ask the person the " +
          "question of `/v1/human-check/challenge?visible=true`), or a sign-in after many failures",
      }),
  })
  .openapi("Failure");

/** Documents the header; `okOnce` (api/idempotent-answer.ts) reads and checks it. */
export const idempotencyKeyHeader = z.object({
  [IDEMPOTENCY_HEADER.toLowerCase()]: z.string().optional().openapi({
    description: "1 to 255 visible ASCII characters: a repeat with the same key answers the first answer again",
  }),
});

/** A JSON request body; every /v1 body is JSON (an empty body counts as `{}`). */
export function jsonBody<S extends z.ZodTypeAny>(schema: S, description?: string) {
  return { required: true, description, content: { "application/json": { schema } } } as const;
}

/**
 * The body of a route that takes no input there: `{}` (what the spec's client sends) or none at all. Declared so
 * that a client validating against /v1/openapi.json may send the `{}` (issue 38).
 */
export const NO_BODY = {
  required: false,
  description: "no input: `{}` or an empty body",
  content: { "application/json": { schema: z.object({}) } },
} as const;

type Answers = Record<number, string>;

/**
 * The route's answers: the success envelope carrying `payload`, and the failures it can give, each
 * described in a few words. The payload's schema types the handler's answer (`ok()` in api/http.ts).
 */
export function answers<S extends z.ZodTypeAny>(
  status: 200 | 201,
  payload: S,
  description: string,
  failures: Answers = {},
): DeclaredAnswers<S> {
  const success = z.object({ success: z.literal(true), message: z.string(), payload });
  const responses: DeclaredAnswers<S> = {
    [status]: { description, content: { "application/json": { schema: success } } },
  };
  for (const [code, text] of Object.entries(failures)) {
    responses[code] = { description: text, content: { "application/json": { schema: failureSchema } } };
  }
  return responses;
}

export const UNAUTHORIZED = { 401: "not signed in: `Please sign in to continue`" };
export const BAD_INPUT = { 400: "bad input: `errors` names each field" };
/** What a signed-in customer's route that takes input can answer besides its own failures. */
export const SIGNED_IN_FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED };
/** What a create answered once per Idempotency-Key (`createdOnce`) may answer besides. */
export const ONCE_FAILURES = {
  409: "the same Idempotency-Key is still in progress",
  422: "the Idempotency-Key was used with another body",
};
