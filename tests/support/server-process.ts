import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A port nothing listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * The real server (`node --import tsx server.ts --api-only`) as a child process that a test can
 * SIGKILL and start again on the same port and database. API-only: vitest runs before the UI build.
 */
export class ApiServerProcess {
  private child: ChildProcess | undefined;
  /** What the process wrote to stdout and stderr, when started with `keepOutput`. */
  output = "";

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly options: { keepOutput?: boolean } = {},
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and resolves once /healthz answers. */
  async start(timeoutMs = 30_000): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "--api-only"], {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ["ignore", this.options.keepOutput ? "pipe" : "ignore", this.options.keepOutput ? "pipe" : "inherit"],
    });
    this.child = child;
    const keep = (chunk: Buffer) => (this.output += chunk.toString("utf8"));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} while starting`);
      const healthy = await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) })
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("server did not become healthy in time");
  }

  /** SIGTERM: the server's own shutdown (in-flight requests finish, the database closes); resolves on exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }

  /** SIGKILL: no shutdown hook runs, in-flight transactions die with their connections. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}
