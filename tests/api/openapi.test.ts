import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApi, createTestApi } from "../support/api";

/** `/v1/cart/remove/:optionId` (Hono) and `/v1/cart/remove/{optionId}` (OpenAPI) name one route. */
const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");

describe("the generated API reference", () => {
  let client: TestApi;
  let document: { openapi: string; paths: Record<string, Record<string, unknown>>; components: any };
  beforeAll(async () => {
    client = await createTestApi();
    document = (await (await client.api.request("/v1/openapi.json")).json()) as typeof document;
  });
  afterAll(() => client.close());

  /** Every handler actually mounted under /v1 (middleware is mounted for every method, as ALL). */
  const mountedRoutes = () =>
    client.api.routes
      .filter((route) => route.method !== "ALL" && route.path.startsWith("/v1/"))
      .map((route) => ({ method: route.method.toLowerCase(), path: openApiPath(route.path) }));

  it("documents every mounted /v1 route with its method", () => {
    const routes = mountedRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const undocumented = routes.filter((route) => !document.paths[route.path]?.[route.method]);
    expect(undocumented).toEqual([]);
    expect(document.openapi).toBe("3.1.0");
  });

  it("declares the bearer token and which routes need it", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect((document.paths["/v1/order/read"].post as { security: unknown }).security).toEqual([{ bearerAuth: [] }]);
    const orderCreate = document.paths["/v1/order/create"].post as { requestBody: any; parameters: any[] };
    expect(orderCreate.parameters).toContainEqual(expect.objectContaining({ name: "idempotency-key", in: "header" }));
    expect(Object.keys(orderCreate.requestBody.content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["coupon", "paymentMethod", "message", "isGuest"]),
    );
  });

  it("serves a readable page naming every route, without scripts", async () => {
    const response = await client.api.request("/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    for (const route of mountedRoutes()) expect(html, route.path).toContain(`<code>${route.path}</code>`);
    // Request and response fields appear in tables, e.g. the quote body's line and the order's lines.
    expect(html).toContain("<code>cartItems[].optionId</code>");
    expect(html).toContain("<code>payload.products[].creds</code>");
  });
});
