import type { MetaDescriptor } from "@remix-run/node";
import { pageMeta } from "./page-meta";

/**
 * The not-found page's: an unknown address, and the back office to anyone who is not staff (ADR 041). Apart from
 * page-meta.ts, which every storefront page loads, so its text is carried only by the pages that use it.
 */
export function notFoundMeta(): MetaDescriptor[] {
  return pageMeta({
    title: "Page not found | Store",
    description: "This address leads nowhere in the store. Head to the shop, look up an order or read the FAQ instead.",
  });
}
