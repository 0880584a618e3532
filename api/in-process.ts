import type { Api } from "./app";
import type { SessionMemo } from "./context";

/** What the pages call /v1 with (AppLoadContext.callApi): a fetch-shaped function. */
export type ApiCaller = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The in-process road to /v1 for one page request. Its calls share one session lookup: a page with four
 * calls reads its token's session once, not four times. Any call that is not a GET may change a session
 * (signing out, a new password, a role), so it empties the memo and the next call looks again.
 */
export function inProcessCaller(api: Api, clientIp: string): ApiCaller {
  const sessions: SessionMemo = new Map();
  return async (path, init) => {
    try {
      return await api.request(path, init, { clientIp, sessions });
    } finally {
      if ((init?.method ?? "GET").toUpperCase() !== "GET") sessions.clear();
    }
  };
}

/** The road to a /v1 elsewhere (API_URL): plain HTTP, each call on its own. */
export function remoteCaller(baseUrl: string): ApiCaller {
  return (path, init) => fetch(baseUrl + path, init);
}
