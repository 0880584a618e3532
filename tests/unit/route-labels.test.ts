import type { IncomingMessage } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { noteApiRoute } from "../../api/metrics";
import { routeLabeller } from "../../server/route-labels";

/* The `route` label of the request duration histogram: a route's id or pattern, never the path (issue 30). */

const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
  id,
  parentId,
  path,
  index,
  caseSensitive: undefined,
  module: {},
});
const build = {
  routes: {
    root: route("root", undefined, ""),
    "routes/_index": route("routes/_index", "root", undefined, true),
    "routes/shop": route("routes/shop", "root", "shop"),
    "routes/shop.$productId": route("routes/shop.$productId", "root", "shop/:productId"),
    "routes/admin": route("routes/admin", "root", "admin"),
    "routes/admin.orders.$orderId": route("routes/admin.orders.$orderId", "routes/admin", "orders/:orderId"),
    "routes/robots[.]txt": route("routes/robots[.]txt", "root", "robots.txt"),
    "routes/$": route("routes/$", "root", "*"),
  },
} as unknown as ServerBuild;

const request = (url: string) => ({ url }) as IncomingMessage;

describe("route labels", () => {
  const label = routeLabeller(build);

  it("names a page by its Remix route id, its data requests too, and whatever no route knows by the catch-all", () => {
    expect(label(request("/"))).toBe("routes/_index");
    expect(label(request("/shop?category=music"))).toBe("routes/shop");
    expect(label(request("/shop/AAAAAAAAAAAAAAAAAAAAAA"))).toBe("routes/shop.$productId");
    expect(label(request("/shop/AAAAAAAAAAAAAAAAAAAAAA.data"))).toBe("routes/shop.$productId");
    expect(label(request("/_root.data"))).toBe("routes/_index");
    expect(label(request("/admin/orders/BBBBBBBBBBBBBBBBBBBBBB"))).toBe("routes/admin.orders.$orderId");
    expect(label(request("/someone@example.com/anything"))).toBe("routes/$");
    expect(label(request("/robots.txt"))).toBe("routes/robots[.]txt");
  });

  it("gives files, probes and /v1 fixed names or their route pattern", () => {
    expect(label(request("/assets/entry.client-abc.js"))).toBe("static");
    expect(label(request("/uploads/products/x.webp"))).toBe("static");
    expect(label(request("/favicon.svg"))).toBe("static");
    expect(label(request("/healthz"))).toBe("/healthz");
    expect(label(request("/metrics"))).toBe("/metrics");
    const matched = request("/v1/order/read/AAAAAAAAAAAAAAAAAAAAAA");
    noteApiRoute(matched, "/v1/order/read/:id");
    expect(label(matched)).toBe("/v1/order/read/:id");
    const unknown = request("/v1/whatever/someone@example.com");
    noteApiRoute(unknown, "/v1/*");
    expect(label(unknown)).toBe("/v1 unmatched");
    expect(label(request("/v1/never-answered"))).toBe("/v1 unmatched");
  });

  it("has no page routes without a build (an API-only instance)", () => {
    expect(routeLabeller(undefined)(request("/shop"))).toBe("page unmatched");
  });
});
