import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";

const longSecret = "a-production-secret-of-at-least-32-chars";
const credentialsKey = Buffer.alloc(32, 1).toString("base64");

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-config-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** loadConfig on exactly these variables (Remix's typings insist that NODE_ENV is always set; here it may not be). */
const configFor = (env: Record<string, string>) => loadConfig(env as NodeJS.ProcessEnv);

/** The ConfigError that loadConfig throws for this environment. */
function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    configFor(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("loadConfig accepted an environment it should refuse");
}

describe("loadConfig", () => {
  it("falls back to the documented defaults", () => {
    const config = configFor({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      env: "development",
      isProduction: false,
      port: 7400,
      dataDir: path.resolve(dataDir),
      databaseUrl: undefined,
      publicUrl: "http://localhost:7400",
      smtpUrl: undefined,
      seedDemo: undefined,
      apiUrl: undefined,
      logLevel: "info",
      trustProxy: false,
    });
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it("treats empty strings as unset", () => {
    const config = configFor({ DATA_DIR: dataDir, PORT: "", DATABASE_URL: "", PUBLIC_URL: "" });
    expect(config.port).toBe(7400);
    expect(config.databaseUrl).toBeUndefined();
  });

  it("derives PUBLIC_URL from PORT and strips trailing slashes from given URLs", () => {
    expect(configFor({ DATA_DIR: dataDir, PORT: "8123" }).publicUrl).toBe("http://localhost:8123");
    const config = configFor({
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://store.example/",
      API_URL: "http://api.internal:7400//",
    });
    expect(config.publicUrl).toBe("https://store.example");
    expect(config.apiUrl).toBe("http://api.internal:7400");
  });

  it("seeds the demo into an empty database outside production only; in production only with SEED_DEMO=true (ADR 053)", () => {
    const production = {
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      CREDENTIALS_KEY: credentialsKey,
    };
    expect(configFor({ DATA_DIR: dataDir, NODE_ENV: "test" }).seedDemo).toBeUndefined();
    expect(configFor(production).seedDemo).toBe(false);
    expect(configFor({ ...production, SEED_DEMO: "true" }).seedDemo).toBe(true);
  });

  it("parses boolean flags", () => {
    expect(configFor({ DATA_DIR: dataDir, SEED_DEMO: "false", TRUST_PROXY: "1" })).toMatchObject({
      seedDemo: false,
      trustProxy: true,
    });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "0"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/store"],
    ["DATABASE_MIGRATION_URL", "mysql://localhost/store"],
    ["PUBLIC_URL", "store.example"],
    ["SMTP_URL", "http://mail.example"],
    ["SEED_DEMO", "maybe"],
    ["LOG_LEVEL", "loud"],
  ])("stops on a bad %s (%s) with one line naming the variable", (name, value) => {
    const error = configErrorFor({ DATA_DIR: dataDir, [name]: value });
    expect(error.message).toContain(name);
    expect(error.message).not.toContain("\n");
  });

  it("takes the schema owner's DATABASE_MIGRATION_URL beside DATABASE_URL, and refuses it alone", () => {
    const owner = "postgres://store_owner@db.internal/store";
    const config = configFor({
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://store_app@db.internal/store",
      DATABASE_MIGRATION_URL: owner,
    });
    expect(config.databaseMigrationUrl).toBe(owner);
    expect(configFor({ DATA_DIR: dataDir }).databaseMigrationUrl).toBeUndefined();
    expect(configErrorFor({ DATA_DIR: dataDir, DATABASE_MIGRATION_URL: owner }).message).toBe(
      "Invalid configuration: DATABASE_MIGRATION_URL is set without DATABASE_URL",
    );
  });

  it("refuses to start in production without SESSION_SECRET", () => {
    const error = configErrorFor({ NODE_ENV: "production", DATA_DIR: dataDir });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("takes a METRICS_TOKEN of 32 characters or more, refuses a shorter one, and leaves /metrics off without", () => {
    expect(configFor({ DATA_DIR: dataDir }).metricsToken).toBeUndefined();
    expect(configFor({ DATA_DIR: dataDir, METRICS_TOKEN: longSecret }).metricsToken).toBe(longSecret);
    expect(configErrorFor({ DATA_DIR: dataDir, METRICS_TOKEN: "x".repeat(31) }).message).toBe(
      "Invalid configuration: METRICS_TOKEN must be at least 32 characters",
    );
  });

  it("refuses a SESSION_SECRET that is too short", () => {
    const error = configErrorFor({ NODE_ENV: "production", DATA_DIR: dataDir, SESSION_SECRET: "short" });
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("does not write a secret file in production", () => {
    const config = configFor({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SESSION_SECRET: longSecret,
      CREDENTIALS_KEY: credentialsKey,
    });
    expect(config.sessionSecrets).toEqual([longSecret]);
    expect(() => statSync(path.join(dataDir, "session-secret"))).toThrow();
    expect(() => statSync(path.join(dataDir, "credentials-key"))).toThrow();
  });

  it("generates a development secret once into DATA_DIR and reuses it", () => {
    const nested = path.join(dataDir, "not-yet-created");
    const first = configFor({ DATA_DIR: nested });
    const file = path.join(nested, "session-secret");
    expect(first.sessionSecrets[0]).toHaveLength(43);
    expect(readFileSync(file, "utf8").trim()).toBe(first.sessionSecrets[0]);
    // Only the owner may read it.
    expect(statSync(file).mode & 0o077).toBe(0);
    const second = configFor({ DATA_DIR: nested });
    expect(second.sessionSecrets).toEqual(first.sessionSecrets);
  });

  it("splits comma-separated secrets for rotation, newest first", () => {
    const older = "an-older-secret-still-accepted-for-a-while";
    const config = configFor({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SESSION_SECRET: `${longSecret}, ${older},`,
      CREDENTIALS_KEY: credentialsKey,
    });
    expect(config.sessionSecrets).toEqual([longSecret, older]);
  });
});

describe("CREDENTIALS_KEY (issue 39, ADR 056)", () => {
  const production = { NODE_ENV: "production", SESSION_SECRET: longSecret };

  it("is required in production, in one line that never repeats a value", () => {
    expect(configErrorFor({ ...production, DATA_DIR: dataDir }).message).toBe(
      "Invalid configuration: CREDENTIALS_KEY is required in production (32 bytes in base64: openssl rand -base64 32)",
    );
    const short = Buffer.alloc(31, 2).toString("base64");
    const error = configErrorFor({ ...production, DATA_DIR: dataDir, CREDENTIALS_KEY: short });
    expect(error.message).toBe(
      "Invalid configuration: CREDENTIALS_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)",
    );
    expect(error.message).not.toContain(short);
    const rotation = configErrorFor({
      ...production,
      DATA_DIR: dataDir,
      CREDENTIALS_KEY: `${credentialsKey},not a key`,
    });
    expect(rotation.message).toContain("entry 2 of CREDENTIALS_KEY");
    expect(rotation.message).not.toContain("not a key");
  });

  it("takes a comma list for rotation, newest first, in standard or URL-safe base64", () => {
    const older = Buffer.alloc(32, 0xfb);
    const config = configFor({
      ...production,
      DATA_DIR: dataDir,
      CREDENTIALS_KEY: ` ${credentialsKey} , ${older.toString("base64url")}`,
    });
    expect(config.credentialKeys).toEqual([Buffer.alloc(32, 1), older]);
  });

  it("is generated once outside production, beside the session secret and outside the database folder", () => {
    const first = configFor({ DATA_DIR: dataDir });
    const file = path.join(dataDir, "credentials-key");
    expect(first.credentialKeys).toHaveLength(1);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64")).toEqual(first.credentialKeys[0]);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(configFor({ DATA_DIR: dataDir }).credentialKeys).toEqual(first.credentialKeys);
  });
});

describe("RETENTION_DAYS and ONION_URL (issue 29)", () => {
  const onion = `http://${"a2".repeat(28)}.onion`;

  it("keeps personal data 30 days unless told otherwise, and has no onion origin by default", () => {
    expect(configFor({ DATA_DIR: dataDir })).toMatchObject({ retentionDays: 30, onionUrl: undefined });
    expect(configFor({ DATA_DIR: dataDir, RETENTION_DAYS: "7" }).retentionDays).toBe(7);
  });

  it.each(["0", "-3", "1.5", "thirty", "4000"])("refuses RETENTION_DAYS=%s with a clear line", (value) => {
    expect(configErrorFor({ DATA_DIR: dataDir, RETENTION_DAYS: value }).message).toMatch(
      /^Invalid configuration: RETENTION_DAYS must be (a whole number of days|at least 1 day|at most 3650 days)$/,
    );
  });

  it("takes a v3 onion origin, with or without its slash", () => {
    expect(configFor({ DATA_DIR: dataDir, ONION_URL: onion }).onionUrl).toBe(onion);
    expect(configFor({ DATA_DIR: dataDir, ONION_URL: `${onion}/` }).onionUrl).toBe(onion);
  });

  it.each([
    ["https", onion.replace("http:", "https:")],
    ["a short name", "http://abcdef.onion"],
    ["upper case", onion.toUpperCase()],
    ["a path", `${onion}/shop`],
    ["a clear-web origin", "http://store.example"],
  ])("refuses an ONION_URL with %s", (_, value) => {
    expect(configErrorFor({ DATA_DIR: dataDir, ONION_URL: value }).message).toBe(
      "Invalid configuration: ONION_URL must be an onion origin: http://<56 base32 characters>.onion, without a path",
    );
  });
});

describe("HOLD_OUTBOUND (issue 37)", () => {
  it("sends by default, holds with true, and refuses a value that is not a flag", () => {
    expect(configFor({ DATA_DIR: dataDir }).holdOutbound).toBe(false);
    expect(configFor({ DATA_DIR: dataDir, HOLD_OUTBOUND: "true" }).holdOutbound).toBe(true);
    expect(configErrorFor({ DATA_DIR: dataDir, HOLD_OUTBOUND: "hold" }).message).toBe(
      "Invalid configuration: HOLD_OUTBOUND must be true or false",
    );
  });
});
