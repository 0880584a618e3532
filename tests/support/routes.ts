/*
 * Every route module a page test calls, by its Remix route name, imported here and only here: when a module moves
 * (a flat admin.orders.$orderId.tsx into admin.orders.$orderId/route.tsx), this map is the one file to change.
 * tests/unit/route-actions-tested.test.ts reads it to prove that every route module with an action is posted to
 * by a page test.
 */
export const routeModules = {
  _index: () => import("../../app/routes/_index"),
  "admin.blocklist": () => import("../../app/routes/admin.blocklist"),
  "admin.catalogue.$productId": () => import("../../app/routes/admin.catalogue.$productId"),
  "admin.catalogue._index": () => import("../../app/routes/admin.catalogue._index"),
  "admin.catalogue.new": () => import("../../app/routes/admin.catalogue.new"),
  "admin.content": () => import("../../app/routes/admin.content"),
  "admin.coupons.$couponId": () => import("../../app/routes/admin.coupons.$couponId"),
  "admin.coupons.new": () => import("../../app/routes/admin.coupons.new"),
  "admin.customers.$customerId": () => import("../../app/routes/admin.customers.$customerId"),
  "admin.customers.$customerId.export": () => import("../../app/routes/admin.customers.$customerId.export"),
  "admin.feedback": () => import("../../app/routes/admin.feedback"),
  "admin.gateways": () => import("../../app/routes/admin.gateways"),
  "admin.keys": () => import("../../app/routes/admin.keys"),
  "admin.keys.csv": () => import("../../app/routes/admin.keys.csv"),
  "admin.notifications": () => import("../../app/routes/admin.notifications"),
  "admin.orders.$orderId": () => import("../../app/routes/admin.orders.$orderId"),
  "admin.orders._index": () => import("../../app/routes/admin.orders._index"),
  "admin.requests": () => import("../../app/routes/admin.requests"),
  "admin.security": () => import("../../app/routes/admin.security"),
  "admin.staff": () => import("../../app/routes/admin.staff"),
  "admin.stock.$optionId": () => import("../../app/routes/admin.stock.$optionId"),
  "admin.stock.$optionId.export": () => import("../../app/routes/admin.stock.$optionId.export"),
  "admin.tickets.$ticketId": () => import("../../app/routes/admin.tickets.$ticketId"),
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
