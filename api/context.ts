import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Logger } from "./logger";
import type { SnapshotCache } from "./snapshot-cache";
import type { AuthUser } from "./middleware/auth";

/** What every API request can reach: set once when the app is built. */
export type ApiDeps = {
  db: Database;
  config: Config;
  logger: Logger;
};

export type ApiEnv = {
  /** In-process callers (the Remix loaders) pass the browser's address here. */
  Bindings: { clientIp?: string };
  /** `user` is set by the auth middleware when a valid bearer token came with the request. */
  Variables: ApiDeps & { requestId: string; user?: AuthUser; snapshots: SnapshotCache };
};
