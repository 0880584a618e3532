import { randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { createRequestHandler } from "@remix-run/express";
import {
  type AppLoadContext,
  createRequestHandler as createFetchRequestHandler,
  type ServerBuild,
} from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createApi } from "./api/app";
import { type ApiCaller, inProcessCaller, remoteCaller } from "./api/in-process";
import { startCredentialSealing, startOrderExpiry, startRetention } from "./api/jobs";
import { type Config, ConfigError, loadConfig } from "./api/config";
import { CredentialKeyError, installCredentialKeys } from "./api/credential-vault";
import { DatabaseSetupError, openConfiguredDatabase } from "./api/db/client";
import { EmbeddedDatabaseInUseError } from "./api/db/embedded-lock";
import { checkReadiness } from "./api/db/readiness";
import { demoPicturesDir } from "./api/db/demo-art/pictures";
import { DEMO_IN_PRODUCTION_WARNING, seedWhenWanted } from "./api/db/seed";
import { createLogger, scrubText, withFields } from "./api/logger";
import { answerMetrics, markOutboundHeld, observeHttpRequest } from "./api/metrics";
import { startMailer } from "./api/mail/sender";
import { picturesDir } from "./api/services/catalogue/pictures";
import { assertCredentialKeysPresent } from "./api/services/stock/credential-keys";
import { startNotificationSender } from "./api/notifications/sender";
import { requestIdFrom } from "./api/request-id";
import { originAllowed } from "./api/security";
import type { UiSettings } from "./app/load-context";
import { anonymousPageCache, type CachedPage } from "./server/page-cache";
import { cameOverHttps, contentSecurityPolicy, setPageSecurityHeaders } from "./server/security-headers";
import { privatePages } from "./server/private-pages";
import { routeLabeller } from "./server/route-labels";
import { onionLocationForPages, setOnionLocation } from "./server/onion-location";

const dev = process.argv.includes("--dev");
/** Serves /v1 and /healthz only, without the Remix build: an API instance for a UI elsewhere (API_URL), or tests that run before the build. */
const apiOnly = process.argv.includes("--api-only");

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
const config = configOrExit();
// The seed, the start-up encryption of an upgrade and every service read the goods' key from here (ADR 056).
installCredentialKeys(config.credentialKeys);
const logger = createLogger(config.logLevel);
const database = await openConfiguredDatabase(config).catch((error: unknown) => {
  // Another process holds the embedded database, the role lacks its rights, the server does not answer: one
  // line saying what to do, not a stack trace.
  if (!(error instanceof EmbeddedDatabaseInUseError || error instanceof DatabaseSetupError)) throw error;
  console.error(error.message);
  process.exit(1);
});
// Goods sealed under a key this process lacks would fail every order showing them: one line, and no start.
await assertCredentialKeysPresent(database.db).catch(async (error: unknown) => {
  if (!(error instanceof CredentialKeyError)) throw error;
  console.error(error.message);
  await database.close();
  process.exit(1);
});
// A production store starts empty; the demo (its coupon, its published redeem keys) only by opt-in (ADR 053).
if (config.isProduction && config.seedDemo) logger.warn(DEMO_IN_PRODUCTION_WARNING);
const { demoOwner } = await seedWhenWanted(database.db, config.seedDemo, logger, {
  demoOwnerDir: config.env === "development" ? config.dataDir : undefined,
});
// Where its sign-in is, once: never the password, as stdout is often the log.
if (demoOwner) console.log(`Demo owner for /admin: ${demoOwner.email}, its password is in ${demoOwner.file}`);
const api = createApi({ db: database.db, config, logger });
// A restore drill starts on a copy whose queue the original store already sent: with HOLD_OUTBOUND nothing leaves.
if (config.holdOutbound) {
  logger.warn("HOLD_OUTBOUND is on: queued mail and operator notifications stay queued and none is sent", {
    sendThem: "start the store without HOLD_OUTBOUND",
  });
}
const mailer = config.holdOutbound ? undefined : startMailer({ db: database.db, config, logger });
const notificationSender = config.holdOutbound
  ? undefined
  : startNotificationSender({ db: database.db, config, logger });
markOutboundHeld(config.holdOutbound);
const orderExpiry = startOrderExpiry({ db: database.db, logger });
const retention = startRetention({ db: database.db, config, logger });
const credentialSealing = startCredentialSealing({ db: database.db, logger });

/** The UI's only road to /v1: in-process by default, over HTTP when API_URL names another server. */
const apiCaller = (clientIp: string): ApiCaller =>
  config.apiUrl ? remoteCaller(config.apiUrl) : inProcessCaller(api, clientIp);

/** The `route` label of the request duration histogram; pages get theirs once the build is loaded. */
let routeLabel = routeLabeller(undefined);

/** The access log line and the duration metric of every answer, whichever road served it (Express, /v1, a stored page). */
function logAccess(req: IncomingMessage, res: ServerResponse, requestId: string, started: number) {
  observeHttpRequest(req.method, routeLabel(req), res.statusCode, (performance.now() - started) / 1000);
  logger.info("http", {
    requestId,
    method: req.method,
    // The path without its query, where emails and order ids travel, nor the ids in it (/pay/sandbox/:id).
    path: scrubText(req.url?.split("?")[0] ?? ""),
    status: res.statusCode,
    ms: Math.round(performance.now() - started),
  });
}

const app = express();
app.disable("x-powered-by");
// Every page carries a fresh CSP nonce, so a body hash could never match; static files keep their own.
app.set("etag", false);
// One proxy hop at most: the first X-Forwarded-For entry is whatever the client wrote.
app.set("trust proxy", config.trustProxy ? 1 : false);

let stopping = false;
app.use((_req, res, next) => {
  // Keep-alive clients (load balancers above all) must not keep a stopping process busy.
  if (stopping) res.setHeader("Connection", "close");
  next();
});

// One id per page request, made here at the edge (or kept from a proxy): the access log line, the
// page's /v1 calls and its error lines all carry it, and the answer names it (ADR 016).
app.use((req, res, next) => {
  const requestId = requestIdFrom(req.get("x-request-id"));
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  next();
});

app.use((req, res, next) => {
  const started = performance.now();
  res.on("finish", () => logAccess(req, res, res.locals.requestId as string, started));
  next();
});

app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  setPageSecurityHeaders(res, req.secure);
  if (!dev) res.setHeader("Content-Security-Policy", contentSecurityPolicy([`'nonce-${nonce}'`]));
  next();
});

// With ONION_URL, every HTML page names its onion twin (a stored page gets it in serveCachedPage).
app.use(onionLocationForPages(config.onionUrl));

// Liveness: the process answers. It does not ask the database, so an outage takes instances out of the
// balancer (/readyz) without an orchestrator restarting every one of them.
app.get("/healthz", (_req, res) => {
  res.json({ status: "ok", database: database.kind });
});

// Readiness: the database answers and this build's migrations are applied; a stopping instance is not ready.
const readinessNow = async () =>
  stopping ? ({ ready: false, reason: "stopping" } as const) : await checkReadiness(database.db);
let lastReadiness = "ready";
app.get("/readyz", async (_req, res) => {
  const readiness = await readinessNow();
  // One line when it changes, not one per probe.
  const now = readiness.ready ? "ready" : readiness.reason;
  if (now !== lastReadiness) logger.warn("readiness changed", { from: lastReadiness, to: now });
  lastReadiness = now;
  res.status(readiness.ready ? 200 : 503).json(readiness.ready ? { status: "ready" } : { status: readiness.reason });
});

// Prometheus metrics of this instance, for a bearer of METRICS_TOKEN; without it there is no such page (ADR 045).
app.get("/metrics", async (req, res) => {
  const answer = await answerMetrics(database.db, config.metricsToken, req.get("authorization"), readinessNow);
  res
    .status(answer.status)
    .set({ "Content-Type": answer.contentType, "Cache-Control": "no-store", ...answer.headers })
    .send(answer.body);
});

// Rendered pages are compressed on every answer, so cheaply: brotli at quality 2 is smaller than gzip's
// default and takes a fraction of the CPU of quality 4 (issue 27; the page cache stores quality 5 once).
app.use(compression({ level: 4, brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } } }));

// Pages use cookies, so a form post from another site must not reach them. /v1 (served before
// Express) uses bearer tokens.
app.use((req, res, next) => {
  if (originAllowed(req.method, req.headers, config.publicUrl, `${req.protocol}://${req.get("host")}`)) return next();
  logger.warn("cross-site form post refused", { path: req.path, origin: req.headers.origin });
  res.status(403).type("text/plain").send("Cross-site form posts are not allowed.");
});

// Uploaded product pictures get a new name for every upload, so browsers may keep them for a year (ADR 024).
// The demo's pictures are named by their artwork's hash and kept with the code, served the same way (ADR 043).
const pictureFiles = {
  immutable: true,
  maxAge: "1y",
  index: false,
  dotfiles: "deny",
  setHeaders: (res: express.Response) => res.setHeader("x-content-type-options", "nosniff"),
} as const;
app.use("/uploads/products", express.static(picturesDir(config.dataDir), pictureFiles));
app.use("/uploads/products", express.static(demoPicturesDir, pictureFiles));

let build: ServerBuild | (() => Promise<ServerBuild>) | undefined;
/** The production build's stylesheet, inlined in every document (ADR 033); the dev server links it. */
let inlineStylesheet: string | null = null;
if (apiOnly) {
  build = undefined;
} else if (dev) {
  const vite = await import("vite").then((module) => module.createServer({ server: { middlewareMode: true } }));
  app.use(vite.middlewares);
  build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
} else {
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  // Hashed file names never change content, so browsers may keep them for a year.
  app.use(
    "/assets",
    express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  // Only a path that names a file (favicon.svg, site.webmanifest) is looked for on disk: a page is not.
  const clientFiles = express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false });
  app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? clientFiles(req, res, next) : next()));
  // Exists after `npm run build`.
  const serverBuild = path.join(buildDir, "server/index.js");
  if (!existsSync(serverBuild)) {
    console.error(
      `The pages are not built (${serverBuild} is missing): run \`npm run build\` first, or start with \`npm start\``,
    );
    await database.close();
    process.exit(1);
  }
  build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const { stylesheetHref } = build.entry.module as { stylesheetHref?: string };
  if (stylesheetHref) inlineStylesheet = readFileSync(path.join(buildDir, "client", stylesheetHref), "utf8");
}

if (build && typeof build !== "function") routeLabel = routeLabeller(build);

/* The pages never read the configuration themselves: these are the settings they need. */
const uiSettings: UiSettings = {
  sessionSecrets: config.sessionSecrets,
  servedOverHttps: config.publicUrl.startsWith("https://"),
  inlineStylesheet,
  // In-process answers are this build's own, proven by the contract tests; a remote /v1 may be another build.
  trustsApiAnswers: !config.apiUrl,
};

function loadContext(req: express.Request, res: express.Response): AppLoadContext {
  const requestId = res.locals.requestId as string;
  return {
    cspNonce: res.locals.cspNonce as string,
    requestId,
    logger: withFields(logger, { requestId }),
    callApi: apiCaller(req.ip ?? req.socket.remoteAddress ?? ""),
    settings: uiSettings,
    requestMethod: req.method,
  };
}

// After the static files, which keep their own caching: pages that depend on who asks are never stored.
app.use(privatePages());

let pageCache: ReturnType<typeof anonymousPageCache> | undefined;
if (build && typeof build !== "function" && config.pageCacheMs > 0) {
  const renderPage = createFetchRequestHandler(build, "production");
  pageCache = anonymousPageCache({
    ttlMs: config.pageCacheMs,
    maxEntries: 500,
    render: (request, req, res) => renderPage(request, loadContext(req, res)),
  });
  app.get("*", pageCache.renderAndKeep);
}

if (build) app.all("*", createRequestHandler({ build, getLoadContext: loadContext }));
else app.all("*", (_req, res) => res.status(404).type("text/plain").send("This instance serves the API only (/v1)."));

/*
 * /v1 is answered by Hono straight from node:http, beside Express rather than inside it: the API
 * needs none of the page middleware, and skipping it nearly triples its throughput (ADR 008).
 */
const apiListener = getRequestListener(api.fetch, { overrideGlobalObjects: false });
function serveApi(req: IncomingMessage, res: ServerResponse) {
  const started = performance.now();
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  // JSON is never a document: nothing in an answer may run or be framed.
  res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  if (stopping) res.setHeader("Connection", "close");
  // Hono's middleware made (or kept) the request id and named it in the answer.
  res.on("finish", () => logAccess(req, res, String(res.getHeader("x-request-id") ?? ""), started));
  void apiListener(req, res);
}
const isApiPath = (url = "") => url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?");

/**
 * A page the cache holds is sent from here, before Express: the headers every page carries, the stored
 * bytes in the visitor's encoding, and the access log line. Nothing else a rendering needs applies to it.
 */
function serveCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage) {
  const started = performance.now();
  const forwardedId = req.headers["x-request-id"];
  const requestId = requestIdFrom(Array.isArray(forwardedId) ? forwardedId[0] : forwardedId);
  res.setHeader("X-Request-Id", requestId);
  setPageSecurityHeaders(res, cameOverHttps(req, config.trustProxy));
  setOnionLocation(res, config.onionUrl, req.url);
  if (stopping) res.setHeader("Connection", "close");
  pageCache!.send(req, res, page);
  logAccess(req, res, requestId, started);
}

const server: Server = createServer((req, res) => {
  if (isApiPath(req.url)) return serveApi(req, res);
  const cached = pageCache?.lookup(req);
  if (cached) return serveCachedPage(req, res, cached);
  app(req, res);
});
// A port already taken (or one below 1024 without the right) ends the start with one line, not a stack trace.
server.once("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE" && error.code !== "EACCES") throw error;
  console.error(
    error.code === "EADDRINUSE"
      ? `Port ${config.port} is already in use (another store or program listens on it): stop that one, or set PORT to a free port`
      : `Port ${config.port} needs privileges this process does not have: set PORT to 1024 or above (a proxy can listen on 80 and 443)`,
  );
  void database.close().finally(() => process.exit(1));
});
server.listen(config.port, () => {
  logger.info("store listening", { url: config.publicUrl, port: config.port, database: database.kind, dev, apiOnly });
});

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  const force = setTimeout(() => {
    logger.warn("in-flight requests did not finish in 10 s; closing anyway");
    server.closeAllConnections();
  }, 10_000);
  force.unref();
  // Stop accepting, let in-flight requests finish, then close the database.
  server.close(async () => {
    await mailer?.stop();
    await notificationSender?.stop();
    await orderExpiry.stop();
    await retention.stop();
    await credentialSealing.stop();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  });
  // A connection turns idle when its in-flight response ends; close it then, not after keepAliveTimeout.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 100).unref();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
