import type { IncomingMessage } from "node:http";
import { matchRoutes } from "@remix-run/react";
import type { ServerBuild } from "@remix-run/node";
import { apiRouteOf } from "../api/metrics";

/*
 * The `route` label of the request duration histogram (api/metrics.ts): a /v1 route pattern, a Remix route
 * id, or one of a few fixed names. Never the path itself, which carries ids, and never more than the routes
 * the store has: an unknown path is Remix's catch-all route (routes/$) or "/v1 unmatched".
 */

type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteNode[] };

function routeTree(build: ServerBuild): RouteNode[] {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(build.routes)) {
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      // React Router refuses an index route with a children array, even an empty one.
      ...(route.index ? {} : { children: [] }),
    });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(build.routes)) {
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** Distinct paths remembered; ids make paths unbounded, so the memo is emptied when it fills. */
const MEMO_LIMIT = 2_000;
const FIXED = new Set(["/healthz", "/readyz", "/metrics"]);

/** A labeller for this process's pages: `build` is the production build, or undefined (API only, dev). */
export function routeLabeller(build: ServerBuild | undefined): (req: IncomingMessage) => string {
  const tree = build ? routeTree(build) : undefined;
  const memo = new Map<string, string>();
  const pageRoute = (pathname: string): string => {
    let label = memo.get(pathname);
    if (label !== undefined) return label;
    // Single-fetch data requests (/shop.data, /_root.data) belong to the page they load.
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = tree ? matchRoutes(tree as Parameters<typeof matchRoutes>[0], page) : null;
    const route = matches?.at(-1)?.route as RouteNode | undefined;
    // A file name only the catch-all matches is one of the client files (favicon.svg), served from disk.
    const fileName = /\.[A-Za-z0-9]+$/.test(page);
    label = fileName && (!route || route.path === "*") ? "static" : (route?.id ?? "page unmatched");
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(pathname, label);
    return label;
  };
  return (req) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    if (pathname === "/v1" || pathname.startsWith("/v1/")) return apiRouteOf(req);
    if (FIXED.has(pathname)) return pathname;
    if (pathname.startsWith("/assets/") || pathname.startsWith("/uploads/")) return "static";
    return pageRoute(pathname);
  };
}
