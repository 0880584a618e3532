/*
 * npm run bench:profile -- <target> [--requests N] [--caches-off] [--identity] [--no-build]
 *
 * Where one request's server CPU goes (issue 27): starts the production server under `node --cpu-prof`
 * (on a scratch database of BENCH_DATABASE_URL, or the embedded one), warms it up, sends N requests to the
 * target 4 at a time, and summarises the profile's samples of that window only: CPU ms per request, then
 * self time by package and by function. Targets: shop, shop-signed-in, dashboard, product, product-read, and
 * checkout (a "request" is one purchase: cart add, then order create paid from the balance).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { embeddedDatabasePath, openDatabase } from "../api/db/client";
import { seedDemoData } from "../api/db/seed";
import { productOptions, users } from "../api/db/schema";
import { createSession } from "../api/services/accounts/sessions";
import { createStoreCookies } from "../app/lib/cookies.server";
import { createScratchPostgresDatabase } from "../tests/support/database";
import { seedOrderHistory } from "../tests/support/order-history";
import { type CheckoutFixture, seedBuyers } from "./checkout";
import { cpuMsOf } from "./cpu";

const root = fileURLToPath(new URL("..", import.meta.url));
const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
/** Required in production (ADR 056): 32 bytes, base64. */
const CREDENTIALS_KEY = Buffer.from("bench-credentials-key-32-bytes!!").toString("base64");
const args = process.argv.slice(2);
const target = args.find((arg) => !arg.startsWith("--")) ?? "shop-signed-in";
const optionValue = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const requests = Number(optionValue("--requests") ?? 400);
const cachesOff = args.includes("--caches-off");
/** `--identity`: ask for uncompressed answers, as the bench's load generator does. */
const acceptEncoding = args.includes("--identity") ? "identity" : "br, gzip";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith("node:")) return url;
  // PGlite's WebAssembly frames (wasm://wasm/<hash>) are no file.
  if (url.startsWith("wasm:")) return "(wasm)";
  const own = path.relative(root, fileURLToPath(url.startsWith("file:") ? url : `file://${url}`));
  return own.startsWith("build-bench") ? "build (app)" : own.split(path.sep).slice(0, 2).join("/");
}

function summarise(profile: CpuProfile, from: number, to: number, count: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByPackage = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  let time = profile.startTime;
  let total = 0;
  for (const [index, sample] of profile.samples.entries()) {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (time < from || time > to) continue;
    const node = byId.get(sample);
    if (!node || node.callFrame.functionName === "(idle)") continue;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const pkg = packageOf(url, functionName);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + delta);
    const label = `${functionName || "(anonymous)"} ${pkg}:${lineNumber + 1}`;
    selfByFunction.set(label, (selfByFunction.get(label) ?? 0) + delta);
  }
  const print = (title: string, table: Map<string, number>, rows: number) => {
    console.log(`\n${title}`);
    for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      console.log(
        `${((micros / total) * 100).toFixed(1).padStart(6)} %  ${(micros / 1000 / count).toFixed(3).padStart(7)} ms/req  ${name}`,
      );
    }
  };
  console.log(`main thread busy: ${(total / 1000 / count).toFixed(2)} ms per request over ${count} requests`);
  print("Self time by package:", selfByPackage, 25);
  print("Self time by function:", selfByFunction, 40);
  // Who calls the busiest native functions (a socket write, say): their callers four frames up.
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const frame = (node: ProfileNode) =>
    `${node.callFrame.functionName || "(anonymous)"} ${packageOf(node.callFrame.url, node.callFrame.functionName)}`;
  const stacks = new Map<string, number>();
  time = profile.startTime;
  for (const [index, sample] of profile.samples.entries()) {
    time += profile.timeDeltas[index] ?? 0;
    if (time < from || time > to) continue;
    const node = byId.get(sample);
    if (!node || node.callFrame.url || node.callFrame.functionName.startsWith("(")) continue;
    const chain = [frame(node)];
    for (let up = parentOf.get(node.id); up && chain.length < 10; up = parentOf.get(up.id)) chain.push(frame(up));
    const key = chain.join(" < ");
    stacks.set(key, (stacks.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  print("Native time by caller:", stacks, 12);
}

async function main() {
  if (!args.includes("--no-build")) {
    console.log("Building into build-bench/ ...");
    const built = spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], {
      cwd: root,
      env: { ...process.env, BUILD_DIR: "build-bench" },
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error("the build failed");
  }
  const scratchDir = mkdtempSync(path.join(tmpdir(), "store-profile-"));
  const scratch = process.env.BENCH_DATABASE_URL
    ? await createScratchPostgresDatabase(process.env.BENCH_DATABASE_URL, "store_profile")
    : undefined;
  const location = scratch?.url ?? embeddedDatabasePath(path.join(scratchDir, "data"));
  const handle = await openDatabase(location);
  let cookie: string;
  let buyers: CheckoutFixture | undefined;
  try {
    await seedDemoData(handle.db);
    const [listing] = await handle.db
      .select({ productId: productOptions.productId, optionId: productOptions.id })
      .from(productOptions)
      .limit(1);
    const [customer] = await handle.db
      .insert(users)
      .values({ username: "profile_customer", email: "profile@example.com", passwordHash: "not-a-password-hash" })
      .returning({ id: users.id, email: users.email });
    await seedOrderHistory(handle.db, { userId: customer.id, email: customer.email }, listing, 200);
    const cookies = createStoreCookies({ sessionSecrets: [SESSION_SECRET], servedOverHttps: false });
    cookie = (await cookies.token.serialize(await createSession(handle.db, customer.id))).split(";")[0];
    if (target === "checkout") buyers = await seedBuyers(handle.db);
  } finally {
    await handle.close();
  }

  const profileDir = path.join(scratchDir, "profile");
  const port = 7390 + Math.floor(Math.random() * 100);
  const server = spawn(
    process.execPath,
    ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--import", "tsx", "server.ts"],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: path.join(scratchDir, "data"),
        DATABASE_URL: scratch?.url ?? "",
        SESSION_SECRET,
        CREDENTIALS_KEY,
        SEED_DEMO: "true",
        BUILD_DIR: "build-bench",
        ...(cachesOff ? { PAGE_CACHE_MS: "0", CATALOGUE_CACHE_MS: "0" } : {}),
      },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (
      (await fetch(`${base}/healthz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      break;
    if (tries > 240) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const products = (await (await fetch(`${base}/v1/product/read`)).json()) as { payload: { _id: string }[] };
  const targets: Record<string, { path: string; headers: Record<string, string> }> = {
    shop: { path: "/shop", headers: {} },
    "shop-signed-in": { path: "/shop", headers: { cookie } },
    dashboard: { path: "/dashboard", headers: { cookie } },
    product: { path: `/shop/${products.payload[0]._id}`, headers: {} },
    "product-read": { path: "/v1/product/read", headers: {} },
  };
  const chosen = target === "checkout" ? { path: "/v1/order/create", headers: {} } : targets[target];
  if (!chosen) throw new Error(`unknown target ${target}; one of ${Object.keys(targets).join(", ")}, checkout`);
  const post = async (urlPath: string, token: string, body: unknown) => {
    const answer = await fetch(base + urlPath, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`${urlPath} answered ${answer.status}`);
  };
  // One purchase: a unit into the buyer's cart, then the order paid from the balance (its mail follows).
  const purchase = async (token: string) => {
    await post("/v1/cart/add", token, { optionId: buyers!.optionId, quantity: 1, duration: buyers!.duration });
    await post("/v1/order/create", token, { coupon: "", paymentMethod: "balance", message: "", isGuest: false });
  };
  const send = async (count: number) => {
    let next = 0;
    const worker = async (index: number) => {
      while (next++ < count) {
        if (buyers) {
          await purchase(buyers.tokens[index]);
          continue;
        }
        const answer = await fetch(base + chosen.path, {
          headers: { ...chosen.headers, "accept-encoding": acceptEncoding },
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`${chosen.path} answered ${answer.status}`);
      }
    };
    await Promise.all([worker(0), worker(1), worker(2), worker(3)]);
  };
  await send(Math.max(100, requests / 4));
  const cpuBefore = cpuMsOf(server.pid!);
  const from = monotonicMicros();
  await send(requests);
  const to = monotonicMicros();
  const cpuMs = cpuMsOf(server.pid!) - cpuBefore;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  await scratch?.drop();
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile was written");
  console.log(`\n${target} (${chosen.path}${cachesOff ? ", caches off" : ""}): ${requests} requests, 4 at a time`);
  console.log(`server CPU (all threads): ${(cpuMs / requests).toFixed(2)} ms per request`);
  summarise(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile, from, to, requests);
  rmSync(scratchDir, { recursive: true, force: true });
}

await main();
