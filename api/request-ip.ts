import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { ApiEnv } from "./context";

/**
 * The address rate limits count against.
 * - In-process calls from the web layer pass the browser's address as `c.env.clientIp`.
 * - Over HTTP it is the socket's peer, unless TRUST_PROXY is set: then the last
 *   X-Forwarded-For entry, the one our own proxy appended (entries before it are the
 *   client's to invent, so trusting the first would let anyone pick a fresh address per try).
 */
export function requestIp(c: Context<ApiEnv>): string {
  const passed = c.env?.clientIp;
  if (passed) return normalise(passed);
  if (c.get("config").trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded
      ?.split(",")
      .map((part) => part.trim())
      .filter(Boolean)
      .pop();
    if (last) return normalise(last);
  }
  if (!(c.env as { incoming?: unknown } | undefined)?.incoming) return "unknown";
  return normalise(getConnInfo(c).remote.address ?? "unknown");
}

/** "::ffff:192.0.2.1" and "192.0.2.1" are one client. */
function normalise(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "").slice(0, 64);
}
