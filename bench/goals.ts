/*
 * Issue 40's goal table, from one run of `npm run bench`: server CPU ms per request for each target, as a
 * browser asks (its Accept-Encoding, and its cookies when signed in), beside the same request without
 * compression and with gzip only; the checkout; and the HTML a phone receives. Kept apart from run.ts so
 * the table's rules are tested (tests/unit/bench-goals.test.ts).
 */

/** What a client asks for: nothing (identity), gzip only (the old bench), or what Chromium sends. */
export const ENCODINGS = {
  identity: undefined,
  gzip: "gzip",
  br: "gzip, deflate, br, zstd",
} as const;
export type EncodingName = keyof typeof ENCODINGS;
export const ENCODING_NAMES = Object.keys(ENCODINGS) as EncodingName[];

/** The bench's target labels (run.ts measures each in every encoding). */
export const TARGET = {
  shopCached: "GET /shop",
  shopSignedIn: "GET /shop (signed in)",
  dashboard: "GET /dashboard (signed in)",
  readCached: "GET /v1/product/read",
  shopUncached: "GET /shop, caches off",
  productUncached: "GET /shop/{id}, caches off",
  readUncached: "GET /v1/product/read, caches off",
} as const;

/** Issue 40's goals, as a browser asks. */
export const GOALS = {
  cpuMs: {
    [TARGET.shopCached]: 0.5,
    [TARGET.shopUncached]: 6,
    [TARGET.productUncached]: 6,
    [TARGET.shopSignedIn]: 6,
    [TARGET.dashboard]: 6,
    [TARGET.readCached]: 0.3,
    [TARGET.readUncached]: 1.5,
  } as Record<string, number>,
  checkoutCpuMs: 6,
  checkoutP95Ms: 100,
  /** KB (1,000 bytes) of HTML, uncompressed, demo catalogue; `npm run size` holds the same budgets. */
  htmlKb: { "/shop": 60, "product page /shop/{id}": 70 } as Record<string, number>,
};

const ROW_NAMES: [string, string][] = [
  ["anonymous /shop from the page cache", TARGET.shopCached],
  ["anonymous /shop, caches off", TARGET.shopUncached],
  ["product page, caches off", TARGET.productUncached],
  ["signed-in /shop", TARGET.shopSignedIn],
  ["signed-in /dashboard", TARGET.dashboard],
  ["GET /v1/product/read, cached", TARGET.readCached],
  ["GET /v1/product/read, caches off", TARGET.readUncached],
];

/** One measured target in one encoding. */
export type CpuFigure = { label: string; encoding: EncodingName; cpuMsPerRequest: number | null };
export type CheckoutResult = { cpuMsPerPurchase: number; p95Ms: number };
export type GoalRow = {
  target: string;
  /** The figure in each encoding, where measured ("-" where not). */
  byEncoding: Record<EncodingName, string>;
  goal: string;
  /** Judged on what a browser asks for; null when not measured. */
  met: boolean | null;
};

const ms = (value: number | null | undefined) => (value == null || Number.isNaN(value) ? "-" : value.toFixed(2));

export function goalTable(
  figures: CpuFigure[],
  checkout: CheckoutResult | undefined,
  htmlBytes: Record<string, number>,
): GoalRow[] {
  const cpuOf = (label: string, encoding: EncodingName) =>
    figures.find((figure) => figure.label === label && figure.encoding === encoding)?.cpuMsPerRequest ?? null;
  const rows: GoalRow[] = ROW_NAMES.map(([target, label]) => {
    const goal = GOALS.cpuMs[label];
    const asBrowser = cpuOf(label, "br");
    return {
      target,
      byEncoding: { identity: ms(cpuOf(label, "identity")), gzip: ms(cpuOf(label, "gzip")), br: ms(asBrowser) },
      goal: `<= ${goal} ms`,
      met: asBrowser == null || Number.isNaN(asBrowser) ? null : asBrowser <= goal,
    };
  });
  const none = { identity: "-", gzip: "-" };
  rows.push(
    {
      target: "one checkout (cart add, order create, mail)",
      byEncoding: { ...none, br: checkout ? ms(checkout.cpuMsPerPurchase) : "-" },
      goal: `<= ${GOALS.checkoutCpuMs} ms`,
      met: checkout ? checkout.cpuMsPerPurchase <= GOALS.checkoutCpuMs : null,
    },
    {
      target: "order/create p95, 20 buyers at once",
      byEncoding: { ...none, br: checkout ? `${checkout.p95Ms} ms` : "-" },
      goal: `<= ${GOALS.checkoutP95Ms} ms`,
      met: checkout ? checkout.p95Ms <= GOALS.checkoutP95Ms : null,
    },
  );
  for (const [page, budgetKb] of Object.entries(GOALS.htmlKb)) {
    const bytes = htmlBytes[page];
    rows.push({
      target: `${page} HTML, uncompressed`,
      byEncoding: { identity: bytes === undefined ? "-" : `${(bytes / 1000).toFixed(1)} KB`, gzip: "-", br: "-" },
      goal: `<= ${budgetKb} KB`,
      met: bytes === undefined ? null : bytes <= budgetKb * 1000,
    });
  }
  return rows;
}

/** The table as printed: target, the figure in each encoding (the browser's last), goal, met. */
export function formatGoalTable(rows: GoalRow[]): string[] {
  const line = (cells: string[]) =>
    `${cells[0].padEnd(46)}${cells[1].padStart(10)}${cells[2].padStart(10)}${cells[3].padStart(12)}   ${cells[4].padEnd(12)}${cells[5]}`;
  return [
    line(["target", "identity", "gzip", "as browser", "goal", "met"]),
    ...rows.map((row) =>
      line([
        row.target,
        row.byEncoding.identity,
        row.byEncoding.gzip,
        row.byEncoding.br,
        row.goal,
        row.met === null ? "-" : row.met ? "yes" : "no",
      ]),
    ),
  ];
}
