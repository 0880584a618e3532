import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessCaller } from "../../api/in-process";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

/*
 * A page's in-process calls (issue 27): the page request's token is looked up once for all its calls, and a
 * call that may change a session makes the next one look again, so a sign-out within a page is seen at once.
 */

let t: ShopTestApi;
let sessionLookups = 0;

beforeAll(async () => {
  const readsASession = (statement: string) => /from "sessions"/.test(statement) && /"token_hash"/.test(statement);
  t = await createShopTestApi({}, { onQuery: (statement) => void (readsASession(statement) && sessionLookups++) });
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

describe("one page request's calls to /v1 in the same process", () => {
  it("look the session up once, however many calls the page makes", async () => {
    const customer = await createCustomer(t.db);
    const callApi = inProcessCaller(t.api, "203.0.113.9");
    const before = sessionLookups;
    for (const path of ["/v1/user/profile", "/v1/cart/read", "/v1/user/profile"]) {
      const answer = await callApi(path, { headers: bearer(customer.token) });
      expect(answer.status).toBe(200);
    }
    expect(sessionLookups - before).toBe(1);

    // Another page request looks again.
    const nextPage = inProcessCaller(t.api, "203.0.113.9");
    expect((await nextPage("/v1/user/profile", { headers: bearer(customer.token) })).status).toBe(200);
    expect(sessionLookups - before).toBe(2);
  });

  it("see a sign-out made earlier in the same page request", async () => {
    const customer = await createCustomer(t.db);
    const callApi = inProcessCaller(t.api, "203.0.113.9");
    expect((await callApi("/v1/user/profile", { headers: bearer(customer.token) })).status).toBe(200);
    const signedOut = await callApi("/v1/user/logout", { method: "POST", headers: bearer(customer.token), body: "{}" });
    expect(signedOut.status).toBe(200);
    expect((await callApi("/v1/user/profile", { headers: bearer(customer.token) })).status).toBe(401);
  });

  it("cannot be handed a memo by an outside caller: a request over HTTP looks its token up itself", async () => {
    const customer = await createCustomer(t.db);
    const before = sessionLookups;
    await t.api.request("/v1/user/profile", { headers: bearer(customer.token) });
    await t.api.request("/v1/user/profile", { headers: bearer(customer.token) });
    expect(sessionLookups - before).toBe(2);
  });
});
