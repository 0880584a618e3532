import { randomBytes } from "node:crypto";
import { createApi } from "../../api/app";
import { type Config, loadConfig } from "../../api/config";
import type { Database } from "../../api/db/client";
import { newId } from "../../api/db/ids";
import {
  paymentGateways,
  productOptions,
  products,
  stockCredentials,
  users,
  warrantyDurations,
} from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import type { Role } from "../../contract/staff";
import { createSession } from "../../api/services/accounts/sessions";
import { checkAnswer, checkRequest } from "./contract";
import { createTestDatabase } from "./database";
import { TEST_CREDENTIALS_KEY } from "./credentials-key";

export type Answer = {
  status: number;
  headers: Headers;
  body: { success: boolean; message: string; payload?: any; errors?: any };
};
type CallOptions = { token?: string; ip?: string; headers?: Record<string, string> };

let addressCounter = 0;
/** A fresh client address per call unless a test names one, so per-address limits meet only on purpose. */
export function nextIp(): string {
  addressCounter++;
  return `192.0.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/**
 * A /v1 app on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL) for the checkout tests,
 * with the sandbox gateway on (NODE_ENV test) and every gateway row enabled.
 */
export async function createShopTestApi(
  env: Record<string, string> = {},
  options: { onQuery?: (statement: string) => void } = {},
) {
  const database = await createTestDatabase(options);
  const db = database.db;
  const config: Config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "/tmp/store-test-data",
    SESSION_SECRET: "shop-test-secret-".padEnd(48, "x"),
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    CATALOGUE_CACHE_MS: "0",
    ...env,
  } as NodeJS.ProcessEnv);
  const logger = createLogger("silent");
  const api = createApi({ db, config, logger });
  await db.insert(paymentGateways).values([
    { name: "coinbase", label: "Crypto", position: 0 },
    { name: "shoppy", label: "Paypal", position: 1 },
    { name: "stripe", label: "Credit/Debit Card", position: 2 },
    { name: "balance", label: "Balance", position: 3 },
  ]);

  async function call(method: string, url: string, body: unknown, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    checkRequest(api, method, url, body);
    const response = await api.request(
      url,
      {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      },
      { clientIp: options.ip ?? nextIp() },
    );
    const answer = { status: response.status, headers: response.headers, body: await response.json() };
    checkAnswer(api, method, url, answer.status, answer.body);
    return answer;
  }

  return {
    api,
    db,
    config,
    logger,
    deps: { db, config, logger },
    get: (url: string, options?: CallOptions) => call("GET", url, undefined, options),
    post: (url: string, body: unknown = {}, options?: CallOptions) => call("POST", url, body, options),
    put: (url: string, body: unknown = {}, options?: CallOptions) => call("PUT", url, body, options),
    delete: (url: string, options?: CallOptions) => call("DELETE", url, undefined, options),
    close: () => database.close(),
  };
}

export type ShopTestApi = Awaited<ReturnType<typeof createShopTestApi>>;

/** An account (a customer unless `role` says otherwise) with a bearer token, made directly in the database (no argon2: tests make many). */
export async function createCustomer(
  db: Database,
  options: { balanceCents?: number; autoCreated?: boolean; role?: Role; now?: Date } = {},
) {
  const name = `c${randomBytes(6).toString("hex")}`;
  const [user] = await db
    .insert(users)
    .values({
      username: name,
      email: `${name}@example.com`,
      passwordHash: "not-a-real-hash",
      balanceCents: options.balanceCents ?? 0,
      autoCreated: options.autoCreated ?? false,
      role: options.role ?? "customer",
    })
    .returning({ id: users.id, email: users.email });
  const token = await createSession(db, user.id, { now: options.now });
  return { id: user.id, email: user.email, token };
}

/** One product with one option and a 30-day price; `stock` credentials (auto) or none (manual). */
export async function createListing(
  db: Database,
  options: {
    title?: string;
    optionTitle?: string;
    priceCents?: number;
    stock?: number;
    minQuantity?: number;
    maxQuantity?: number | null;
    fulfilMode?: "auto" | "manual";
  } = {},
) {
  const productId = newId();
  const optionId = newId();
  const title = options.title ?? `Product ${productId.slice(0, 4)}`;
  await db.insert(products).values({
    id: productId,
    title,
    minQuantity: options.minQuantity ?? 1,
    maxQuantity: options.maxQuantity === undefined ? null : options.maxQuantity,
    fulfilMode: options.fulfilMode ?? "auto",
    deliveryNotes: "Sign in at the provider; do not change the password.",
    description: `${title} description`,
  });
  await db.insert(productOptions).values({ id: optionId, productId, title: options.optionTitle ?? "Private" });
  await db.insert(warrantyDurations).values({
    optionId,
    title: "1 Month Warranty",
    durationDays: 30,
    priceCents: options.priceCents ?? 500,
  });
  const stock = options.fulfilMode === "manual" ? 0 : (options.stock ?? 5);
  if (stock > 0) {
    await db.insert(stockCredentials).values(
      Array.from({ length: stock }, (_, index) => ({
        optionId,
        username: `user${index}-${optionId.slice(0, 4)}`,
        password: `pass${index}`,
      })),
    );
  }
  return { productId, optionId, title };
}

/** Puts a line in the customer's server cart through the API. */
export async function addToCart(client: ShopTestApi, token: string, optionId: string, quantity = 1, duration = 30) {
  const answer = await client.post("/v1/cart/add", { optionId, quantity, duration }, { token });
  if (answer.status !== 200) throw new Error(`cart add failed: ${answer.status} ${answer.body.message}`);
  return answer;
}
