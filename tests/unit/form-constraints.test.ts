import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderConstraintModules } from "../../scripts/form-constraints";

describe("storefront form constraints", () => {
  it("each .constraints.ts module is what its forms' zod schemas give today (else run `npm run forms:constraints`)", async () => {
    const modules = await renderConstraintModules();
    expect(modules.length).toBeGreaterThan(0);
    for (const { file, source } of modules) {
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, "utf8"), file).toBe(source);
    }
  });
});
