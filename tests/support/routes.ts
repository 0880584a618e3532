/*
 * Every route module a page test calls, by its Remix route name, imported here and only here: when a module moves
 * (a flat admin.orders.$orderId.tsx into admin.orders.$orderId/route.tsx), this map is the one file to change.
 * tests/unit/route-actions-tested.test.ts reads it to prove that every route module with an action is posted to
 * by a page test.
 */
export const routeModules = {
  _index: () => import("../../app/routes/_index"),
  "admin.blocklist": () => import("../../app/routes/admin.blocklist/route"),
  "admin.catalogue.$productId": () => import("../../app/routes/admin.catalogue.$productId/route"),
  "admin.catalogue._index": () => import("../../app/routes/admin.catalogue._index/route"),
  "admin.catalogue.new": () => import("../../app/routes/admin.catalogue.new/route"),
  "admin.content": () => import("../../app/routes/admin.content/route"),
  "admin.coupons.$couponId": () => import("../../app/routes/admin.coupons.$couponId/route"),
  "admin.coupons.new": () => import("../../app/routes/admin.coupons.new/route"),
  "admin.customers.$customerId": () => import("../../app/routes/admin.customers.$customerId/route"),
  "admin.customers.$customerId.export": () => import("../../app/routes/admin.customers.$customerId.export"),
  "admin.feedback": () => import("../../app/routes/admin.feedback/route"),
  "admin.gateways": () => import("../../app/routes/admin.gateways/route"),
  "admin.keys": () => import("../../app/routes/admin.keys/route"),
  "admin.keys.csv": () => import("../../app/routes/admin.keys.csv"),
  "admin.notifications": () => import("../../app/routes/admin.notifications/route"),
  "admin.orders.$orderId": () => import("../../app/routes/admin.orders.$orderId/route"),
  "admin.orders._index": () => import("../../app/routes/admin.orders._index/route"),
  "admin.requests": () => import("../../app/routes/admin.requests/route"),
  "admin.security": () => import("../../app/routes/admin.security/route"),
  "admin.staff": () => import("../../app/routes/admin.staff/route"),
  "admin.stock.$optionId": () => import("../../app/routes/admin.stock.$optionId/route"),
  "admin.stock.$optionId.export": () => import("../../app/routes/admin.stock.$optionId.export"),
  "admin.tickets.$ticketId": () => import("../../app/routes/admin.tickets.$ticketId/route"),
  balance: () => import("../../app/routes/balance"),
  cart: () => import("../../app/routes/cart"),
  "contact.$token": () => import("../../app/routes/contact.$token"),
  "contact._index": () => import("../../app/routes/contact._index"),
  dashboard: () => import("../../app/routes/dashboard"),
  "find-order": () => import("../../app/routes/find-order"),
  forgot: () => import("../../app/routes/forgot"),
  lite: () => import("../../app/routes/lite"),
  login: () => import("../../app/routes/login"),
  logout: () => import("../../app/routes/logout"),
  "pay.sandbox.$paymentId": () => import("../../app/routes/pay.sandbox.$paymentId"),
  "redeem-key": () => import("../../app/routes/redeem-key"),
  reset: () => import("../../app/routes/reset"),
  settings: () => import("../../app/routes/settings"),
  shop: () => import("../../app/routes/shop"),
  "shop.$productId": () => import("../../app/routes/shop.$productId"),
  signup: () => import("../../app/routes/signup"),
  slots: () => import("../../app/routes/slots"),
  tickets: () => import("../../app/routes/tickets"),
  "tickets.$ticketId": () => import("../../app/routes/tickets.$ticketId"),
};

export type RouteName = keyof typeof routeModules;

/** The route module named `name` (its loader and action), for tests/support/pages.ts to call. */
export function route<Name extends RouteName>(name: Name): ReturnType<(typeof routeModules)[Name]> {
  return routeModules[name]() as ReturnType<(typeof routeModules)[Name]>;
}
