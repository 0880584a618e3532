import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(7400),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters (comma-separated for rotation)").optional(),
  PUBLIC_URL: z.string().url("must be an absolute URL such as https://store.example").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).default("Store <no-reply@store.localhost>"),
  SEED_DEMO: booleanFlag.optional(),
  API_URL: z.string().url("must be an absolute URL of a /v1 server").optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  TRUST_PROXY: booleanFlag.default("false"),
});

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecrets: string[];
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** undefined means "seed when the database is empty". */
  seedDemo: boolean | undefined;
  apiUrl: string | undefined;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  trustProxy: boolean;
};

export class ConfigError extends Error {}

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
  const sessionSecrets = values.SESSION_SECRET
    ? values.SESSION_SECRET.split(",").map((secret) => secret.trim()).filter(Boolean)
    : [developmentSecret(dataDir)];
  return {
    env: values.NODE_ENV,
    isProduction,
    port: values.PORT,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    sessionSecrets,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ""),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    seedDemo: values.SEED_DEMO,
    apiUrl: values.API_URL?.replace(/\/+$/, ""),
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
  };
}
