/*
 * What compressing the store's real pages costs at each level (issue 40, ADR 058): brotli qualities 0-11 and
 * gzip levels 1-9 on /shop, a product page and the /v1/product/read snapshot, as CPU microseconds per KB of
 * input and the bytes that come out. Picks the levels of a rendered page (compressed for each answer) and of a
 * cached one (compressed once per snapshot).
 *
 *   node --import tsx bench/compression-levels.ts [base URL]
 *
 * Without a URL it starts the build in build/ (`npm run build` first) with the demo catalogue on a temporary
 * embedded database. Each figure is the median of several rounds of process CPU time (not wall time), so other
 * processes on a busy machine count less, though caches and frequency scaling still do.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { demoPages, pageHtml, startDemoStore } from "../scripts/demo-store.mjs";

type Sample = { label: string; body: Buffer };
type Level = { codec: "br" | "gzip"; level: number };

const levels: Level[] = [
  ...Array.from({ length: 12 }, (_, level) => ({ codec: "br" as const, level })),
  ...Array.from({ length: 9 }, (_, index) => ({ codec: "gzip" as const, level: index + 1 })),
];

function compress({ codec, level }: Level, body: Buffer): Buffer {
  return codec === "br"
    ? brotliCompressSync(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: level, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipSync(body, { level });
}

/** CPU microseconds of one compression of `body`: the median of rounds lasting at least ~40 ms each. */
function cpuMicrosOf(level: Level, body: Buffer): number {
  const once = () => {
    const before = process.cpuUsage();
    compress(level, body);
    const spent = process.cpuUsage(before);
    return spent.user + spent.system;
  };
  const first = Math.max(once(), 1);
  const perRound = Math.max(1, Math.min(200, Math.round(40_000 / first)));
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    const before = process.cpuUsage();
    for (let index = 0; index < perRound; index++) compress(level, body);
    const spent = process.cpuUsage(before);
    rounds.push((spent.user + spent.system) / perRound);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)];
}

async function samplesFrom(baseUrl: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const page of await demoPages(baseUrl))
    samples.push({ label: page.label, body: await pageHtml(baseUrl, page.path) });
  const list = await fetch(`${baseUrl}/v1/product/read`);
  samples.push({ label: "GET /v1/product/read", body: Buffer.from(await list.arrayBuffer()) });
  return samples;
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

async function main() {
  const given = process.argv[2];
  const store = given ? undefined : await startDemoStore();
  try {
    const samples = await samplesFrom(given ?? store!.baseUrl);
    for (const sample of samples) {
      console.log("");
      console.log(`${sample.label}: ${(sample.body.length / 1000).toFixed(1)} KB uncompressed`);
      console.log(`${"codec".padEnd(10)}${pad("ms/answer", 10)}${pad("us/KB", 8)}${pad("bytes", 9)}${pad("ratio", 7)}`);
      for (const level of levels) {
        const micros = cpuMicrosOf(level, sample.body);
        const bytes = compress(level, sample.body).length;
        console.log(
          `${`${level.codec} ${level.level}`.padEnd(10)}${pad((micros / 1000).toFixed(2), 10)}` +
            `${pad((micros / (sample.body.length / 1000)).toFixed(1), 8)}${pad(bytes, 9)}` +
            `${pad((sample.body.length / bytes).toFixed(1), 7)}`,
        );
      }
    }
  } finally {
    await store?.stop();
  }
}

await main();
