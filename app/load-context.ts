import "@remix-run/node";
import type { Logger } from "../api/logger";

/** The few process settings the pages need; server.ts builds them once from the configuration. */
export type UiSettings = {
  /** SESSION_SECRET: the first signs cookies, every one verifies them (rotation). */
  sessionSecrets: string[];
  /** Whether PUBLIC_URL is https: cookies are Secure then, and plain-http local runs keep them. */
  servedOverHttps: boolean;
  /** The built stylesheet's text, which production documents carry inline (ADR 033); null: link it. */
  inlineStylesheet: string | null;
  /**
   * Whether /v1 answers come from this process (no API_URL): then they are not validated again on the page side,
   * since the API tests check every answer against its declared schema. A remote /v1 is validated.
   */
  trustsApiAnswers: boolean;
};

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
    /** The same object for every request of the process. */
    settings: UiSettings;
    /** The page request's method (absent: a GET); a human check read while answering a POST is visible. */
    requestMethod?: string;
  }
}
