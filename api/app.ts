import { Hono, type MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiDeps, ApiEnv } from "./context";
import { installCredentialKeys } from "./credential-vault";
import { AppError, describeError } from "./errors";
import { scrubText, withFields } from "./logger";
import { noteApiRoute } from "./metrics";
import { requestIdFrom } from "./request-id";
import { SnapshotCache } from "./snapshot-cache";
import { RateLimitedError } from "./services/guards/rate-limit";
import { catalogueRoutes } from "./routes/catalogue";
import { contentRoutes } from "./routes/content";
import { cartRoutes } from "./routes/cart";
import { authenticate } from "./middleware/auth";
import { checkInput } from "./middleware/input";
import { honoOf } from "./openapi";
import { publishedDocument, referenceRoutes } from "./routes/reference";
import { humanCheckRoutes } from "./routes/human-check";
import { userRoutes } from "./routes/user";
import { privacyRoutes, retentionPolicyRoutes } from "./routes/privacy";
import { orderRoutes } from "./routes/order";
import { balanceRoutes } from "./routes/balance";
import { spinwheelRoutes } from "./routes/spinwheel";
import { ticketRoutes } from "./routes/ticket";
import { contactRoutes } from "./routes/contact";
import { requestRoutes } from "./routes/request";
import { feedbackRoutes } from "./routes/feedback";
import { sandboxRoutes, webhookRoutes } from "./routes/webhooks";
import { adminRoutes } from "./routes/admin";

/** The most bytes a /v1 request body may have. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Refuses a body over `maxSize` with 413: an announced one at once, a streamed one (chunked, or with no length,
 * as a DELETE often is) once it passes the limit, and then the routes read the bytes held here. Not Hono's
 * bodyLimit: it copies the request with `new Request(request, ...)`, which throws on the Node adapter's request
 * object, so every streamed body was a 500.
 */
function limitBody(maxSize: number): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const request = c.req.raw;
    const tooLarge = () => c.json({ success: false, message: "The request body is too large" }, 413);
    if (!request.body) return next();
    const declared = request.headers.get("content-length");
    if (declared !== null && !request.headers.has("transfer-encoding")) {
      return Number(declared) > maxSize ? tooLarge() : next();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxSize) {
        await reader.cancel();
        return tooLarge();
      }
      chunks.push(value);
    }
    c.req.raw = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: size > 0 ? Buffer.concat(chunks) : undefined,
      signal: request.signal,
    });
    return next();
  };
}

/**
 * The /v1 JSON API. Built once per process; the web layer calls it in-process
 * with `api.request(path, init, { clientIp })`, other clients over HTTP.
 */
export function createApi(deps: ApiDeps) {
  installCredentialKeys(deps.config.credentialKeys);
  const api = new Hono<ApiEnv>();
  const snapshots = new SnapshotCache(deps.config.catalogueCacheMs);

  // Only for clients that ask: the in-process UI sends no Accept-Encoding and pays nothing.
  api.use("*", compress());
  api.use("*", async (c, next) => {
    // A page's in-process calls bring the id the page request got at the edge (server.ts).
    const requestId = requestIdFrom(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    c.set("db", deps.db);
    c.set("config", deps.config);
    c.set("logger", withFields(deps.logger, { requestId }));
    c.set("snapshots", snapshots);
    const started = performance.now();
    await next();
    // The route pattern for the request duration histogram (server.ts), never the raw path.
    noteApiRoute((c.env as { incoming?: object } | undefined)?.incoming, routePath(c, -1));
    c.header("x-request-id", requestId);
    c.header("cache-control", c.res.headers.get("cache-control") ?? "no-store");
    deps.logger.debug("api", {
      requestId,
      method: c.req.method,
      path: scrubText(c.req.path),
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });

  const v1 = new OpenAPIHono<ApiEnv>().basePath("/v1");
  // The largest body a route takes is a 5 MB stock import (or a 2 MB picture in base64): anything bigger is
  // refused while it streams in, before it is held in memory.
  v1.use("*", limitBody(MAX_BODY_BYTES));
  v1.use(
    "*",
    checkInput({
      rawBodyUnder: "/v1/webhooks/",
      lineByLine: { path: /^\/v1\/admin\/stock\/[^/]+\/import$/, field: "text" },
    }),
  );
  v1.use("*", authenticate);
  v1.route("/", honoOf(catalogueRoutes));
  v1.route("/", honoOf(contentRoutes));
  v1.route("/cart", honoOf(cartRoutes));
  v1.route("/user", honoOf(userRoutes));
  v1.route("/user", honoOf(privacyRoutes));
  v1.route("/privacy", honoOf(retentionPolicyRoutes));
  v1.route("/human-check", honoOf(humanCheckRoutes));
  v1.route("/order", honoOf(orderRoutes));
  v1.route("/balance", honoOf(balanceRoutes));
  v1.route("/ticket", honoOf(ticketRoutes));
  v1.route("/contact", honoOf(contactRoutes));
  v1.route("/spinwheel", honoOf(spinwheelRoutes));
  v1.route("/request", honoOf(requestRoutes));
  v1.route("/admin", honoOf(adminRoutes));
  v1.route("/feedback", honoOf(feedbackRoutes));
  v1.route("/webhooks", honoOf(webhookRoutes));
  v1.route("/sandbox", honoOf(sandboxRoutes));
  v1.route("/", honoOf(referenceRoutes(v1)));
  api.route("/", v1);

  api.notFound((c) => c.json({ success: false, message: "Not found" }, 404));

  api.onError((error, c) => {
    if (error instanceof AppError) {
      // Every limit on every route says when to come back, here in one place.
      if (error instanceof RateLimitedError) c.header("Retry-After", String(error.retryAfterSeconds));
      return c.json(
        { success: false, message: error.message, ...(error.errors && { errors: error.errors }), ...error.flags },
        error.status,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ success: false, message: error.message || "Bad request" }, error.status);
    }
    // Never the error itself: a failed query's message carries its parameters (emails, messages, addresses).
    deps.logger.error("api error", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: scrubText(c.req.path),
      error: describeError(error),
    });
    return c.json(
      { success: false, message: "Something went wrong on our side. Please try again.", requestId: c.get("requestId") },
      500,
    );
  });

  // The contract tests check every answer against the route's own declaration and the published document
  // (tests/support/contract.ts).
  const declaredRoutes = () =>
    v1.openAPIRegistry.definitions.flatMap((definition) => (definition.type === "route" ? [definition.route] : []));
  const openApiDocument = () => publishedDocument(v1);
  return Object.assign(api, { declaredRoutes, openApiDocument });
}

export type Api = ReturnType<typeof createApi>;
