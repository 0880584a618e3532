import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The nonce that this response's Content-Security-Policy allows for scripts. */
    cspNonce: string;
    /** Calls the /v1 API (in-process, or API_URL); only app/lib/api.server.ts uses it. */
    callApi: (path: string, init?: RequestInit) => Promise<Response>;
  }
}
