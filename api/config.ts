import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { decodeCredentialKey } from "./credential-vault";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** A version 3 onion service's origin: 56 base32 characters, over http (Tor encrypts the hop itself). */
const ONION_ORIGIN = /^http:\/\/[a-z2-7]{56}\.onion\/?$/;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(7400),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters (comma-separated for rotation)").optional(),
  CREDENTIALS_KEY: z.string().optional(),
  PUBLIC_URL: z.string().url("must be an absolute URL such as https://store.example").optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Store <no-reply@store.localhost>"),
  SEED_DEMO: booleanFlag.optional(),
  API_URL: z.string().url("must be an absolute URL of a /v1 server").optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  TRUST_PROXY: booleanFlag.default("false"),
  PAGE_CACHE_MS: z.coerce.number().int().min(0, "must be 0 (off) or more milliseconds").max(60_000).default(1000),
  CATALOGUE_CACHE_MS: z.coerce.number().int().min(0, "must be 0 (off) or more milliseconds").max(60_000).default(1000),
  // Payment gateways: each is enabled only when its API key and webhook secret are both set.
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  STRIPE_API_BASE: z
    .string()
    .url("must be an absolute URL such as https://api.stripe.com")
    .refine(
      (url) => !URL.canParse(url) || new URL(url).pathname === "/",
      "must be an origin without a path (the SDK adds /v1)",
    )
    .optional(),
  COINBASE_API_KEY: z.string().min(8).optional(),
  COINBASE_WEBHOOK_SECRET: z.string().min(8).optional(),
  COINBASE_API_BASE: z.string().url("must be an absolute URL such as https://api.commerce.coinbase.com").optional(),
  SHOPPY_API_KEY: z.string().min(8).optional(),
  SHOPPY_WEBHOOK_SECRET: z.string().min(8).optional(),
  SHOPPY_API_BASE: z.string().url("must be an absolute URL such as https://shoppy.gg/api/v1").optional(),
  SANDBOX_PAYMENTS: booleanFlag.optional(),
  HUMAN_CHECK: z.enum(["builtin", "recaptcha", "turnstile"]).default("builtin"),
  HUMAN_CHECK_SECRET: z.string().min(1).optional(),
  HUMAN_CHECK_SITE_KEY: z.string().min(1).optional(),
  HUMAN_CHECK_VERIFY_URL: z.string().url("must be an absolute URL of a siteverify endpoint").optional(),
  RATE_LIMIT_SCALE: z.coerce.number().positive("must be a positive number").default(1),
  OPERATOR_EMAIL: z.string().email("must be an email address such as operator@store.example").optional(),
  NOTIFY_WEBHOOK_URL: z
    .string()
    .url("must be an absolute http:// or https:// URL")
    .refine((url) => /^https?:\/\//i.test(url), "must be an absolute http:// or https:// URL")
    .optional(),
  NOTIFY_WEBHOOK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  HOLD_OUTBOUND: booleanFlag.default("false"),
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  RETENTION_DAYS: z.coerce
    .number({ invalid_type_error: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(3650, "must be at most 3650 days")
    .default(30),
  ONION_URL: z
    .string()
    .regex(ONION_ORIGIN, "must be an onion origin: http://<56 base32 characters>.onion, without a path")
    .optional(),
});

/** Where each provider verifies a widget's answer; HUMAN_CHECK_VERIFY_URL overrides it (tests use a local fake). */
const SITEVERIFY_URLS = {
  recaptcha: "https://www.google.com/recaptcha/api/siteverify",
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
} as const;

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The schema owner's connection, for migrations only; unset: DATABASE_URL migrates (ADR 036). */
  databaseMigrationUrl: string | undefined;
  sessionSecrets: string[];
  /** CREDENTIALS_KEY's keys, newest first: the first seals the goods, every one opens them (ADR 056). */
  credentialKeys: Buffer[];
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * undefined means "seed when the database is empty", which only development and tests get: a production
   * store seeds the demo only when SEED_DEMO=true is set (and warns of it at every start, ADR 053).
   */
  seedDemo: boolean | undefined;
  apiUrl: string | undefined;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  trustProxy: boolean;
  /** How long the product and category lists may be served from a snapshot; 0 turns it off. */
  catalogueCacheMs: number;
  /** How long a public page rendered for a cookie-less visitor may be served again; 0 turns it off. */
  pageCacheMs: number;
  payments: PaymentsConfig;
  humanCheck:
    | { provider: "builtin" }
    | { provider: "recaptcha" | "turnstile"; secret: string; siteKey: string; verifyUrl: string };
  /** Multiplies every rate limit; above 1 only for load tests and end-to-end suites run from one address. */
  rateLimitScale: number;
  notifications: OperatorChannelsConfig;
  /** HOLD_OUTBOUND: queued mail and operator notifications stay queued, nothing is sent (a restore drill, ADR 054). */
  holdOutbound: boolean;
  /** The bearer token of GET /metrics; unset, /metrics does not exist (ADR 045). */
  metricsToken: string | undefined;
  /** How many days personal data that is no longer needed is kept (ADR 044). */
  retentionDays: number;
  /** The store's onion origin (no trailing slash): pages answer an Onion-Location header when set. */
  onionUrl: string | undefined;
};

/** Where the operator's notifications go (ADR 030); an undefined channel is off. */
export type OperatorChannelsConfig = {
  /** OPERATOR_EMAIL */
  operatorEmail: string | undefined;
  /** NOTIFY_WEBHOOK_URL and the secret its requests are signed with. */
  webhook: { url: string; secret: string } | undefined;
};

export class ConfigError extends Error {}

/** Credentials of one hosted gateway; apiBase lets tests point it at a local fake of the provider. */
export type GatewayCredentials = { apiKey: string; webhookSecret: string; apiBase: string };

/** A gateway that is undefined here is disabled. */
export type PaymentsConfig = {
  stripe: GatewayCredentials | undefined;
  coinbase: GatewayCredentials | undefined;
  shoppy: GatewayCredentials | undefined;
  /** The local demo gateway: on outside production, in production only with SANDBOX_PAYMENTS=true. */
  sandbox: boolean;
};

function gatewayCredentials(
  variables: string,
  apiKey: string | undefined,
  webhookSecret: string | undefined,
  apiBase: string,
): GatewayCredentials | undefined {
  if (!apiKey && !webhookSecret) return undefined;
  // Half a configuration would take payments that can never be confirmed: refuse to start instead.
  if (!apiKey || !webhookSecret) {
    throw new ConfigError(`Invalid configuration: ${variables} must be set together`);
  }
  return { apiKey, webhookSecret, apiBase: apiBase.replace(/\/+$/, "") };
}

function paymentsConfig(values: z.infer<typeof envSchema>, isProduction: boolean): PaymentsConfig {
  return {
    stripe: gatewayCredentials(
      "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET",
      values.STRIPE_SECRET_KEY,
      values.STRIPE_WEBHOOK_SECRET,
      values.STRIPE_API_BASE ?? "https://api.stripe.com",
    ),
    coinbase: gatewayCredentials(
      "COINBASE_API_KEY and COINBASE_WEBHOOK_SECRET",
      values.COINBASE_API_KEY,
      values.COINBASE_WEBHOOK_SECRET,
      values.COINBASE_API_BASE ?? "https://api.commerce.coinbase.com",
    ),
    shoppy: gatewayCredentials(
      "SHOPPY_API_KEY and SHOPPY_WEBHOOK_SECRET",
      values.SHOPPY_API_KEY,
      values.SHOPPY_WEBHOOK_SECRET,
      values.SHOPPY_API_BASE ?? "https://shoppy.gg/api/v1",
    ),
    sandbox: values.SANDBOX_PAYMENTS ?? !isProduction,
  };
}

/** Empty strings count as unset, as they do in most deployment tools. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}

/**
 * Development keeps one generated secret in DATA_DIR so cookies survive restarts;
 * production must be given one, so instances behind a load balancer agree.
 */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not generated yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

/** The embedded default's credentials key: beside the session secret, never in the PGlite folder nor a backup. */
export const CREDENTIALS_KEY_FILE = "credentials-key";

/**
 * CREDENTIALS_KEY's entries, newest first (comma-separated while a rotation runs). Never the value in a message:
 * which entry is wrong is enough.
 */
function credentialKeysOf(value: string): Buffer[] {
  const entries = value.split(",").map((entry) => entry.trim());
  return entries.map((entry, index) => {
    const key = decodeCredentialKey(entry);
    if (!key) {
      const which = entries.length > 1 ? `entry ${index + 1} of CREDENTIALS_KEY` : "CREDENTIALS_KEY";
      throw new ConfigError(
        `Invalid configuration: ${which} must be 32 bytes in base64 (make one with: openssl rand -base64 32)`,
      );
    }
    return key;
  });
}

/**
 * Outside production the goods' key is generated once into DATA_DIR (not its pglite folder, which a backup copies),
 * and may hold a comma list too. Production must be given one, so instances agree and the key is kept on purpose.
 */
function developmentCredentialKeys(dataDir: string): Buffer[] {
  const file = path.join(dataDir, CREDENTIALS_KEY_FILE);
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing) return credentialKeysOf(existing);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${error.message} (in ${file})`);
    // not generated yet
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600 });
  return [key];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join(".")} ${issue.message}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === "production";
  const dataDir = path.resolve(values.DATA_DIR);
  if (isProduction && !values.SESSION_SECRET) {
    throw new ConfigError("Invalid configuration: SESSION_SECRET is required in production");
  }
  if (isProduction && !values.CREDENTIALS_KEY) {
    throw new ConfigError(
      "Invalid configuration: CREDENTIALS_KEY is required in production (32 bytes in base64: openssl rand -base64 32)",
    );
  }
  // Checked before anything is written to DATA_DIR; the generated key, like the session secret, comes last.
  const configuredKeys = values.CREDENTIALS_KEY ? credentialKeysOf(values.CREDENTIALS_KEY) : undefined;
  const provider = values.HUMAN_CHECK;
  if (provider !== "builtin" && (!values.HUMAN_CHECK_SECRET || !values.HUMAN_CHECK_SITE_KEY)) {
    throw new ConfigError(
      `Invalid configuration: HUMAN_CHECK=${provider} needs HUMAN_CHECK_SECRET and HUMAN_CHECK_SITE_KEY`,
    );
  }
  // A webhook without its secret would send notifications nobody can verify: refuse to start instead.
  if (values.NOTIFY_WEBHOOK_URL && !values.NOTIFY_WEBHOOK_SECRET) {
    throw new ConfigError(
      "Invalid configuration: NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET (at least 32 characters)",
    );
  }
  if (values.NOTIFY_WEBHOOK_SECRET && !values.NOTIFY_WEBHOOK_URL) {
    throw new ConfigError("Invalid configuration: NOTIFY_WEBHOOK_SECRET is set without NOTIFY_WEBHOOK_URL");
  }
  // The embedded database has no roles: a migration URL there is a mistake, not a no-op.
  if (values.DATABASE_MIGRATION_URL && !values.DATABASE_URL) {
    throw new ConfigError("Invalid configuration: DATABASE_MIGRATION_URL is set without DATABASE_URL");
  }
  const sessionSecrets = values.SESSION_SECRET
    ? values.SESSION_SECRET.split(",")
        .map((secret) => secret.trim())
        .filter(Boolean)
    : [developmentSecret(dataDir)];
  const credentialKeys = configuredKeys ?? developmentCredentialKeys(dataDir);
  return {
    env: values.NODE_ENV,
    isProduction,
    port: values.PORT,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databaseMigrationUrl: values.DATABASE_MIGRATION_URL,
    sessionSecrets,
    credentialKeys,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ""),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    seedDemo: values.SEED_DEMO ?? (isProduction ? false : undefined),
    apiUrl: values.API_URL?.replace(/\/+$/, ""),
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    catalogueCacheMs: values.CATALOGUE_CACHE_MS,
    pageCacheMs: values.PAGE_CACHE_MS,
    payments: paymentsConfig(values, isProduction),
    humanCheck:
      provider === "builtin"
        ? { provider }
        : {
            provider,
            secret: values.HUMAN_CHECK_SECRET!,
            siteKey: values.HUMAN_CHECK_SITE_KEY!,
            verifyUrl: values.HUMAN_CHECK_VERIFY_URL ?? SITEVERIFY_URLS[provider],
          },
    rateLimitScale: values.RATE_LIMIT_SCALE,
    notifications: {
      operatorEmail: values.OPERATOR_EMAIL,
      webhook: values.NOTIFY_WEBHOOK_URL
        ? { url: values.NOTIFY_WEBHOOK_URL, secret: values.NOTIFY_WEBHOOK_SECRET! }
        : undefined,
    },
    holdOutbound: values.HOLD_OUTBOUND,
    metricsToken: values.METRICS_TOKEN,
    retentionDays: values.RETENTION_DAYS,
    onionUrl: values.ONION_URL?.replace(/\/+$/, ""),
  };
}
