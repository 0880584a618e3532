import type { Context } from "hono";
import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Logger } from "./logger";
import type { SnapshotCache } from "./snapshot-cache";
import type { AuthUser } from "./middleware/auth";

/**
 * Bearer token to the lookup of the user it signed in (null: none), kept for one page request only. The lookup
 * itself is kept, not its result, so a page's loaders calling at once share one query.
 */
export type SessionMemo = Map<string, Promise<AuthUser | null>>;

/** What every API request can reach: set once when the app is built. */
export type ApiDeps = {
  db: Database;
  config: Config;
  logger: Logger;
};

export type ApiEnv = {
  /**
   * In-process callers (the Remix loaders) pass the browser's address here, and one page request's memo of
   * the sessions its calls carried: a page with four calls looks its token up once (api/middleware/auth.ts).
   */
  Bindings: { clientIp?: string; sessions?: SessionMemo };
  /** `user` is set by the auth middleware when a valid bearer token came with the request. */
  Variables: ApiDeps & { requestId: string; user?: AuthUser; snapshots: SnapshotCache };
};

/** The database and configuration a service needs, from the request's context. */
export const depsOf = (c: Context<ApiEnv>) => ({ db: c.get("db"), config: c.get("config") });
