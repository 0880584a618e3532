/*
 * Lighthouse (mobile, simulated throttling: its default) on Debian's Chromium, for `npm run bench` (issue 18).
 * One headless Chromium per run, reached over its DevTools port; each page is audited once, in turn.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type LighthousePage = { label: string; url: string; headers?: Record<string, string>; noindex?: boolean };

export type LighthouseFigures = {
  label: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  /** A page meant to stay out of search results is exempt from the SEO goal. */
  noindex: boolean;
};

/** Goals from issue 18: performance >= 98 with the largest paint within 1.5 s; the other categories 100. */
export const LIGHTHOUSE_GOALS = { performance: 98, lcpMs: 1_500, accessibility: 100, bestPractices: 100, seo: 100 };

type Category = { score: number | null };
type Report = {
  lhr: {
    categories: Record<"performance" | "accessibility" | "best-practices" | "seo", Category>;
    audits: Record<string, { numericValue?: number }>;
    runtimeError?: { message: string };
  };
};
type RunLighthouse = (url: string, flags: Record<string, unknown>) => Promise<Report | undefined>;

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Starts Chromium with a DevTools port and answers the port once it listens. */
function startChromium(profileDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    CHROMIUM,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--remote-debugging-port=0",
      `--user-data-dir=${profileDir}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port: ${seen}`)), 30_000);
    child.stderr?.on("data", (chunk) => {
      seen = (seen + chunk).slice(-2_000);
      const port = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const score = (category: Category) => Math.round((category.score ?? 0) * 100);

export async function runLighthouse(pages: LighthousePage[]): Promise<LighthouseFigures[]> {
  // Loaded by name so the type checker does not walk Lighthouse's own (very large) types.
  const lighthouseModule = "lighthouse";
  const { default: lighthouse } = (await import(lighthouseModule)) as { default: RunLighthouse };
  const profileDir = mkdtempSync(path.join(tmpdir(), "store-lighthouse-"));
  const { child, port } = await startChromium(profileDir);
  try {
    const figures: LighthouseFigures[] = [];
    const audit = async (page: LighthousePage, onlyCategories: string[]) => {
      const report = await lighthouse(page.url, {
        port,
        output: "json",
        logLevel: "error",
        onlyCategories,
        extraHeaders: page.headers,
      });
      if (!report) throw new Error(`Lighthouse gave no report for ${page.url}`);
      if (report.lhr.runtimeError) {
        throw new Error(`Lighthouse could not audit ${page.url}: ${report.lhr.runtimeError.message}`);
      }
      return report.lhr;
    };
    for (const page of pages) {
      // Performance in a pass of its own: the other categories' gatherers instrument the load (CSS and JS
      // coverage), which the simulated throttling counts as the page's own main-thread work.
      const speed = await audit(page, ["performance"]);
      const { categories } = await audit(page, ["accessibility", "best-practices", "seo"]);
      figures.push({
        label: page.label,
        url: page.url,
        performance: score(speed.categories.performance),
        accessibility: score(categories.accessibility),
        bestPractices: score(categories["best-practices"]),
        seo: score(categories.seo),
        lcpMs: Math.round(speed.audits["largest-contentful-paint"]?.numericValue ?? 0),
        tbtMs: Math.round(speed.audits["total-blocking-time"]?.numericValue ?? 0),
        noindex: page.noindex ?? false,
      });
    }
    return figures;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** The goals a page's figures miss, in words; empty when it meets them all. */
export function lighthouseMisses(figures: LighthouseFigures): string[] {
  const misses: string[] = [];
  if (figures.performance < LIGHTHOUSE_GOALS.performance) misses.push(`performance ${figures.performance}`);
  if (figures.lcpMs > LIGHTHOUSE_GOALS.lcpMs) misses.push(`LCP ${figures.lcpMs} ms`);
  if (figures.accessibility < LIGHTHOUSE_GOALS.accessibility) misses.push(`accessibility ${figures.accessibility}`);
  if (figures.bestPractices < LIGHTHOUSE_GOALS.bestPractices) misses.push(`best practices ${figures.bestPractices}`);
  if (!figures.noindex && figures.seo < LIGHTHOUSE_GOALS.seo) misses.push(`SEO ${figures.seo}`);
  return misses;
}
