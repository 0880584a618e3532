import { timingSafeEqual, createHash } from "node:crypto";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { sql } from "drizzle-orm";
import type { Database } from "./db/client";
import { type Readiness, checkReadiness } from "./db/readiness";
import { RETENTION_LAST_RUN_KEY } from "./services/privacy/retention";

/*
 * Prometheus metrics of this process (issue 30, ADR 045), read at GET /metrics with METRICS_TOKEN. Counters
 * are per instance, as Prometheus expects: sum them over instances in the query. Labels take a value from a
 * small fixed set only (a route pattern, a gateway's name, an outcome), never a path, an id or an address, so
 * the series stay few and no personal data reaches the monitoring system.
 */

export const metricsRegistry = new Registry();
const registers = [metricsRegistry];
collectDefaultMetrics({ register: metricsRegistry });

/** Payment methods an order may name; anything else (there should be nothing) is counted as "other". */
const PAYMENT_METHODS = new Set(["balance", "sandbox", "stripe", "coinbase", "shoppy", "key"]);
const paymentMethodLabel = (method: string) => (PAYMENT_METHODS.has(method) ? method : "other");

/**
 * What kind of request a route serves, so that an alert can hold each kind to its own speed (ADR 054): cached
 * storefront hits, far the most, must not hide a slow checkout in one overall percentile.
 */
export type RouteClass = "shop" | "checkout" | "account" | "admin" | "webhook" | "probe" | "static" | "unmatched";
const ROUTE_CLASSES: [RouteClass, RegExp][] = [
  ["static", /^static$/],
  ["probe", /^\/(healthz|readyz|metrics)$/],
  ["unmatched", /^(\/v1 unmatched|page unmatched|routes\/\$)$/],
  ["admin", /^(\/v1\/admin\/|routes\/admin)/],
  ["webhook", /^\/v1\/webhooks\//],
  [
    "checkout",
    /^(\/v1\/(cart|sandbox)\/|\/v1\/order\/(create|redeemKey)$|\/v1\/balance\/create$|routes\/(cart|balance|redeem-key|pay\.sandbox\.\$paymentId)$)/,
  ],
  [
    "shop",
    /^(\/v1\/(category|product|announcement|payment_gateway|faq|social_link|doc)\/|\/v1\/(order\/recent|feedback\/readPublic|privacy\/retention|openapi\.json|docs)$|root$|routes\/(_index|shop|shop\.\$productId|lite|faqs|terms|terms-of-service|privacy-policy|sitemap\[\.\]xml|robots\[\.\]txt|resources\.recent-orders)$)/,
  ],
];
/** The class of a `route` label; what no rule names is the customer's own area (account, orders, tickets, sign-in). */
export function routeClassOf(route: string): RouteClass {
  return ROUTE_CLASSES.find(([, pattern]) => pattern.test(route))?.[0] ?? "account";
}

export const httpRequestDuration = new Histogram({
  name: "store_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern (/v1) or Remix route id (pages), its class and status",
  labelNames: ["method", "route", "route_class", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
type Observer = { observe(seconds: number): void };
const observers = new Map<string, Observer>();
/** Observes one answer; the labelled child is looked up once per distinct label set (a Map hit per request). */
export function observeHttpRequest(method: string | undefined, route: string, status: number, seconds: number) {
  const verb = method && KNOWN_METHODS.has(method) ? method : "OTHER";
  const key = `${verb} ${status} ${route}`;
  let observer = observers.get(key);
  if (!observer) {
    observer = httpRequestDuration.labels({
      method: verb,
      route,
      route_class: routeClassOf(route),
      status: String(status),
    });
    observers.set(key, observer);
  }
  observer.observe(seconds);
}

const ordersCreated = new Counter({
  name: "store_orders_created_total",
  help: "Orders created (checkouts, guest checkouts and redeemed keys), by payment method",
  labelNames: ["payment_method"] as const,
  registers,
});
// Every method's series exists from the start at 0: "nothing paid lately" must compare with 0, not with no series.
for (const method of PAYMENT_METHODS) ordersCreated.inc({ payment_method: method }, 0);
export const countOrderCreated = (paymentMethod: string) =>
  ordersCreated.inc({ payment_method: paymentMethodLabel(paymentMethod) });

const ordersPaid = new Counter({
  name: "store_orders_paid_total",
  help: "Orders settled as paid and delivered (or waiting for staff), by payment method",
  labelNames: ["payment_method"] as const,
  registers,
});
for (const method of PAYMENT_METHODS) ordersPaid.inc({ payment_method: method }, 0);
export const countOrderPaid = (paymentMethod: string) =>
  ordersPaid.inc({ payment_method: paymentMethodLabel(paymentMethod) });

const paymentOutcomes = new Counter({
  name: "store_payments_total",
  help: "Hosted payments (orders and top-ups) that ended, by gateway and outcome (paid, failed, expired)",
  labelNames: ["gateway", "outcome"] as const,
  registers,
});
export const countPaymentOutcome = (gateway: string, outcome: "paid" | "failed" | "expired") =>
  paymentOutcomes.inc({ gateway: paymentMethodLabel(gateway), outcome });

const webhookOutcomes = new Counter({
  name: "store_webhooks_total",
  help: "Payment webhook deliveries, by gateway and outcome (applied, duplicate, ignored, rejected, payment_not_found, error)",
  labelNames: ["gateway", "outcome"] as const,
  registers,
});
export const countWebhook = (gateway: string, outcome: string) =>
  webhookOutcomes.inc({ gateway: paymentMethodLabel(gateway), outcome });

/*
 * Background jobs are named by the `task` label: a label called `job` would clash with the one Prometheus gives
 * every scraped series, and be stored as `exported_job`, out of reach of a rule that says `job` (ADR 054).
 */
const JOB_NAMES = ["mailer", "notifications", "order-expiry", "retention"] as const;
export type JobName = (typeof JOB_NAMES)[number];
const jobRuns = new Counter({
  name: "store_job_runs_total",
  help: "Runs of the background jobs of this instance, by task and outcome (ok, error)",
  labelNames: ["task", "outcome"] as const,
  registers,
});
for (const task of JOB_NAMES) for (const outcome of ["ok", "error"]) jobRuns.inc({ task, outcome }, 0);
const jobLastSuccess = new Gauge({
  name: "store_job_last_success_timestamp_seconds",
  help: "When this instance's job last ran without an error (Unix time), by task",
  labelNames: ["task"] as const,
  registers,
});
export function countJobRun(task: JobName, outcome: "ok" | "error") {
  jobRuns.inc({ task, outcome });
  if (outcome === "ok") jobLastSuccess.set({ task }, Date.now() / 1000);
}

const outboundHeld = new Gauge({
  name: "store_outbound_held",
  help: "1 when this instance started with HOLD_OUTBOUND: it sends no mail and no operator notification",
  registers,
});
export const markOutboundHeld = (held: boolean) => outboundHeld.set(held ? 1 : 0);

// Read from the database on each scrape: the same on every instance, as they describe the shared database.
const outboxBacklog = new Gauge({
  name: "store_outbox_backlog",
  help: "Messages waiting to be sent (pending, retries included), by outbox (mail, notification)",
  labelNames: ["outbox"] as const,
  registers,
});
const outboxOldestAge = new Gauge({
  name: "store_outbox_oldest_age_seconds",
  help: "Age of the oldest message waiting to be sent, by outbox; 0 when none waits",
  labelNames: ["outbox"] as const,
  registers,
});
const outboxFailed = new Gauge({
  name: "store_outbox_failed",
  help: "Messages given up on after their last retry, by outbox",
  labelNames: ["outbox"] as const,
  registers,
});
const jobLag = new Gauge({
  name: "store_job_lag_seconds",
  help: "How far the order-expiry task is behind: age of the oldest unpaid order past its expiry time; 0 when none",
  labelNames: ["task"] as const,
  registers,
});
const retentionLastRun = new Gauge({
  name: "store_retention_last_run_timestamp_seconds",
  help: "When any instance last applied the retention rules (Unix time); 0 before the first run",
  registers,
});
const stockBelowThreshold = new Gauge({
  name: "store_stock_options_below_threshold",
  help: "Active automatic options whose free stock is under their low-stock threshold",
  registers,
});
const stockSoldOut = new Gauge({
  name: "store_stock_options_sold_out",
  help: "Active automatic options with no free stock",
  registers,
});

const ready = new Gauge({
  name: "store_ready",
  help: "1 when this instance would answer /readyz with 200 (database answering, migrations applied, not stopping)",
  registers,
});

const databaseUp = new Gauge({
  name: "store_database_up",
  help: "1 when the last scrape could read the database's figures, 0 when not (the gauges above then keep old values)",
  registers,
});

type DatabaseFigures = {
  mail_pending: number;
  mail_oldest: number | null;
  mail_failed: number;
  notification_pending: number;
  notification_oldest: number | null;
  notification_failed: number;
  expiry_lag: number | null;
  retention_last_run: number | null;
  below_threshold: number;
  sold_out: number;
};

async function readDatabaseFigures(db: Database): Promise<DatabaseFigures> {
  const result = await db.execute<DatabaseFigures>(sql`select
    (select count(*)::int from mail_outbox where status = 'pending') as mail_pending,
    (select extract(epoch from now() - min(created_at))::float8 from mail_outbox where status = 'pending') as mail_oldest,
    (select count(*)::int from mail_outbox where status = 'failed') as mail_failed,
    (select count(*)::int from notification_outbox where status = 'pending') as notification_pending,
    (select extract(epoch from now() - min(created_at))::float8 from notification_outbox where status = 'pending')
      as notification_oldest,
    (select count(*)::int from notification_outbox where status = 'failed') as notification_failed,
    (select extract(epoch from now() - min(expires_at))::float8 from orders
      where status = 'pending' and expires_at < now()) as expiry_lag,
    (select extract(epoch from (value #>> '{}')::timestamptz)::float8 from store_settings
      where key = ${RETENTION_LAST_RUN_KEY}) as retention_last_run,
    (select count(*)::int from (
      select o.low_stock_threshold as threshold,
        (select count(*) from stock_credentials s where s.option_id = o.id and s.status = 'available') as free
      from product_options o join products p on p.id = o.product_id
      where o.active and p.active and p.fulfil_mode = 'auto') levels
      where free < threshold) as below_threshold,
    (select count(*)::int from product_options o join products p on p.id = o.product_id
      where o.active and p.active and p.fulfil_mode = 'auto'
      and not exists (select 1 from stock_credentials s where s.option_id = o.id and s.status = 'available')) as sold_out`);
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: DatabaseFigures[] }).rows;
  return rows[0];
}

/** Hashed first, so the comparison takes the same time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export type MetricsAnswer = { status: number; contentType: string; body: string; headers?: Record<string, string> };

/**
 * GET /metrics: without METRICS_TOKEN there is no such page (404); with it, a request without
 * `Authorization: Bearer <token>`, or with another token, gets 401.
 */
export async function answerMetrics(
  db: Database,
  token: string | undefined,
  authorization: string | undefined,
  readiness: () => Promise<Readiness | { ready: false }> = () => checkReadiness(db),
): Promise<MetricsAnswer> {
  if (!token) return { status: 404, contentType: "text/plain; charset=utf-8", body: "Not found" };
  const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1] ?? "";
  if (!sameSecret(given, token)) {
    return {
      status: 401,
      contentType: "text/plain; charset=utf-8",
      body: "Unauthorized",
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
    };
  }
  // What /readyz would answer, so readiness is alertable from the scrape alone, without a blackbox probe.
  ready.set((await readiness()).ready ? 1 : 0);
  try {
    const figures = await readDatabaseFigures(db);
    for (const outbox of ["mail", "notification"] as const) {
      outboxBacklog.set({ outbox }, figures[`${outbox}_pending`]);
      outboxOldestAge.set({ outbox }, Math.max(0, figures[`${outbox}_oldest`] ?? 0));
      outboxFailed.set({ outbox }, figures[`${outbox}_failed`]);
    }
    jobLag.set({ task: "order-expiry" }, Math.max(0, figures.expiry_lag ?? 0));
    retentionLastRun.set(figures.retention_last_run ?? 0);
    stockBelowThreshold.set(figures.below_threshold);
    stockSoldOut.set(figures.sold_out);
    databaseUp.set(1);
  } catch {
    // The database is down: the process metrics are still worth a scrape.
    databaseUp.set(0);
  }
  return { status: 200, contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** The matched /v1 route pattern of a request served over HTTP, keyed by node's request object. */
const apiRoutes = new WeakMap<object, string>();
/** Called by the API's first middleware once a request is answered; in-process calls have no node request. */
export function noteApiRoute(incoming: object | undefined, pattern: string) {
  // A request no route matched ends at a catch-all middleware: one label for all of them.
  if (incoming) apiRoutes.set(incoming, pattern.includes("*") ? "/v1 unmatched" : pattern);
}
export const apiRouteOf = (incoming: object): string => apiRoutes.get(incoming) ?? "/v1 unmatched";
