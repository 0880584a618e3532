import "@remix-run/node";
import type { Logger } from "../api/logger";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The nonce that this response's Content-Security-Policy allows for scripts. */
    cspNonce: string;
    /** Calls the /v1 API (in-process, or API_URL); only app/lib/api.server.ts uses it. */
    callApi: (path: string, init?: RequestInit) => Promise<Response>;
    /** This page request's id, made at the edge; sent with every /v1 call it makes. */
    requestId: string;
    /** The server's JSON logger; every line carries `requestId`. */
    logger: Logger;
  }
}
