import { eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { users } from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import { type ShopTestApi, createShopTestApi } from "../support/shop";

/*
 * Rotating SESSION_SECRET as docs/operations.md says (the new secret first, the old one after it; later the
 * old one removed) keeps staff able to sign in with their two-factor app: their TOTP secret is sealed under a
 * key derived from SESSION_SECRET (ADR 027), so it opens under the old secret during the overlap and is sealed
 * again under the new one the first time a code is used.
 */

const OLD = "the-old-session-secret-of-at-least-32-chars";
const NEW = "the-new-session-secret-of-at-least-32-chars";
const PASSWORD = "correct horse battery staple";
let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi({ SESSION_SECRET: OLD });
});
afterAll(() => client.close());

/** The same database served with another SESSION_SECRET, as after a redeploy. */
function servedWith(sessionSecret: string) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "/tmp/store-test-data",
    SESSION_SECRET: sessionSecret,
    CATALOGUE_CACHE_MS: "0",
  } as NodeJS.ProcessEnv);
  const api = createApi({ db: client.db, config, logger: createLogger("silent") });
  return async (url: string, body: unknown) => {
    const response = await api.request(
      url,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
      { clientIp: "203.0.113.50" },
    );
    return { status: response.status, body: (await response.json()) as { message: string; payload?: any } };
  };
}

const step = () => Math.floor(Date.now() / 1000 / 30);
const codeAt = (secret: string, at: number) => generateSync({ secret, epoch: at * 30 });

async function signIn(post: ReturnType<typeof servedWith>, username: string, code: string) {
  // A code is spent once per 30-second step: forget the last one, as if the next step had come.
  await client.db.update(users).set({ totpLastStep: null }).where(eq(users.username, username));
  const password = await post("/v1/user/login", { username, password: PASSWORD });
  expect(password.status, password.body.message).toBe(200);
  return post("/v1/user/login/two-factor", { challenge: password.body.payload.challenge, code });
}

describe("rotating SESSION_SECRET", () => {
  it("keeps two-factor sign-in working through the overlap and after the old secret is removed", async () => {
    const username = `rotation${Date.now().toString(36)}`;
    const registered = await client.post("/v1/user/register", {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      password2: PASSWORD,
    });
    expect(registered.status).toBe(201);
    await client.db.update(users).set({ role: "owner" }).where(eq(users.username, username));
    const token = registered.body.payload.token as string;
    const setup = await client.post("/v1/admin/two-factor/setup", {}, { token });
    const secret = setup.body.payload.secret as string;
    const enabled = await client.post("/v1/admin/two-factor/enable", { code: codeAt(secret, step()) }, { token });
    expect(enabled.status).toBe(200);

    // Every instance now runs with the new secret first and the old one after it.
    const overlap = await signIn(servedWith(`${NEW},${OLD}`), username, codeAt(secret, step() + 1));
    expect(overlap.status, overlap.body.message).toBe(200);
    // Later the old secret is removed.
    const after = await signIn(servedWith(NEW), username, codeAt(secret, step()));
    expect(after.status, after.body.message).toBe(200);
  });
});
