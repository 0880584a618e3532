import { describe, expect, it } from "vitest";
import { routeClassOf } from "../../api/metrics";

/*
 * The `route_class` label of the request duration histogram (issue 37, ADR 054): the slow-request alert holds each
 * class to its own percentile, so a checkout is never averaged with cached storefront hits.
 */

describe("routeClassOf", () => {
  it.each([
    ["/v1/order/create", "checkout"],
    ["/v1/cart/add", "checkout"],
    ["/v1/order/redeemKey", "checkout"],
    ["/v1/balance/create", "checkout"],
    ["/v1/sandbox/payments/:paymentId/pay", "checkout"],
    ["routes/cart", "checkout"],
    ["routes/pay.sandbox.$paymentId", "checkout"],
    ["routes/_index", "shop"],
    ["routes/shop", "shop"],
    ["routes/shop.$productId", "shop"],
    ["/v1/product/read/:productId", "shop"],
    ["/v1/category/read", "shop"],
    ["routes/admin.orders.$orderId", "admin"],
    ["/v1/admin/orders/:orderId/credentials", "admin"],
    ["/v1/webhooks/:gateway", "webhook"],
    ["routes/dashboard", "account"],
    ["/v1/order/read/:id", "account"],
    ["/v1/user/login", "account"],
    ["/healthz", "probe"],
    ["/metrics", "probe"],
    ["static", "static"],
    ["routes/$", "unmatched"],
    ["/v1 unmatched", "unmatched"],
  ])("%s is %s", (route, routeClass) => {
    expect(routeClassOf(route)).toBe(routeClass);
  });
});
