import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts so vitest never loads the Remix plugin.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/pages/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Measured on the 2-core CI machine (ADR 064): vitest's default of one worker per core but one leaves a core idle
    // while a file waits on PostgreSQL or a child process; two workers and no per-file module reload halve the suite.
    // Each test file still gets its own database; a file must not leave module state behind (none does).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    isolate: false,
  },
});
