import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/*
 * PGlite is one process's database: a second process opening the same folder (`npm run admin:create` while the
 * store runs) works on its own copy, and what it writes is lost when the store next writes the folder (an owner
 * it printed as created could not sign in after a restart). The process that opens the embedded database keeps
 * its pid in DATA_DIR/store.pid until it closes it or exits; another process finds a live pid there and refuses
 * (ADR 038). A pid left by a killed process is stale: its process is gone, and the next opener takes the file.
 */

export const EMBEDDED_LOCK_FILE = "store.pid";

export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The store is running on the embedded database in ${dataDir} (process ${pid}); stop it first, ` +
        "or use DATABASE_URL: a PostgreSQL server can be shared by the store and this command.",
    );
    this.name = "EmbeddedDatabaseInUseError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of another live process holding the embedded database in `dataDir`, or null. */
export function embeddedDatabaseHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, EMBEDDED_LOCK_FILE), "utf8");
  } catch {
    return null;
  }
  const pid = Number.parseInt(text.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  return alive(pid) ? pid : null;
}

/**
 * Claims the embedded database in `dataDir` for this process, or throws EmbeddedDatabaseInUseError; the
 * answer releases it (and so does the process's exit).
 */
export function claimEmbeddedDatabase(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, EMBEDDED_LOCK_FILE);
  const mine = `${process.pid}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      // `wx`: of two processes starting at once, one creates the file.
      writeFileSync(file, mine, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = embeddedDatabaseHolder(dataDir);
      if (holder !== null) throw new EmbeddedDatabaseInUseError(dataDir, holder);
      if (attempt > 0) throw error;
      unlinkSync(file);
    }
  }
  const release = () => {
    try {
      if (readFileSync(file, "utf8") === mine) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once("exit", release);
  return () => {
    process.off("exit", release);
    release();
  };
}
