/*
 * node --import tsx bench/checkout-locks.ts [admin URL]
 *
 * Where the 20-buyer checkout's p95 goes (issue 40, ADR 063): the bench's checkout (bench/checkout.ts) against the
 * production start of /v1 alone (`server.ts --api-only`, NODE_ENV production) on a scratch database of the
 * PostgreSQL server, while a second connection samples every 5 ms what the store's backends wait on
 * (pg_stat_activity: a lock and on what, the client, I/O) and which lock they queue for (pg_locks). Prints the
 * p50/p95, the server's CPU per purchase (cart add and order create) and the backends in each state per
 * sample: the states a backend is in most are where the time goes.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { installCredentialKeys } from "../api/credential-vault";
import { openDatabase } from "../api/db/client";
import { seedDemoData } from "../api/db/seed";
import { createScratchPostgresDatabase } from "../tests/support/database";
import { measureCheckout, seedBuyers } from "./checkout";
import { cpuMsOf } from "./cpu";

const adminUrl = process.argv[2] ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CREDENTIALS_KEY = Buffer.from("bench-credentials-key-32-bytes!!").toString("base64");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function main() {
  const scratch = await createScratchPostgresDatabase(adminUrl, "store_locks");
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-locks-"));
  installCredentialKeys([Buffer.from(CREDENTIALS_KEY, "base64")]);
  const handle = await openDatabase(scratch.url);
  await seedDemoData(handle.db);
  const fixture = await seedBuyers(handle.db);
  await handle.close();

  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "--api-only"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
      CREDENTIALS_KEY,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (tries > 600) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const watcher = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const states = new Map<string, number>();
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rows = await watcher`
        select a.state, a.wait_event_type, a.wait_event,
               (select coalesce(l.locktype || ' ' || coalesce(c.relname, ''), '')
                from pg_locks l left join pg_class c on c.oid = l.relation
                where l.pid = a.pid and not l.granted limit 1) as waits_for
        from pg_stat_activity a
        where a.datname = current_database() and a.pid <> pg_backend_pid() and a.backend_type = 'client backend'`;
      samples++;
      for (const row of rows) {
        const key =
          row.state === "active"
            ? `active: ${row.wait_event_type ?? "cpu"} ${row.wait_event ?? ""} ${row.waits_for ?? ""}`.trim()
            : `${row.state}: ${row.wait_event ?? ""}`.trim();
        states.set(key, (states.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const cpuBefore = cpuMsOf(child.pid!);
  const figures = await measureCheckout(base, fixture);
  // Cart add and order create; the mail is sent by the outbox worker, partly after this.
  const cpuMsPerPurchase = (cpuMsOf(child.pid!) - cpuBefore) / figures.orders;
  sampling = false;
  await sampler;
  await watcher.end();
  child.kill("SIGTERM");

  console.log(JSON.stringify({ ...figures, cpuMsPerPurchase: Number(cpuMsPerPurchase.toFixed(2)) }));
  console.log(`backend states over ${samples} samples (backends in that state per sample):`);
  for (const [state, seen] of [...states].sort((a, b) => b[1] - a[1])) {
    console.log(`${(seen / samples).toFixed(2).padStart(6)}  ${state}`);
  }
  await new Promise((resolve) => child.once("exit", resolve));
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
