import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/* Every ADR follows docs/decisions/000-template.md, so they read alike and a script can list them (issue 28). */

const folder = path.join(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(folder).filter((name) => /^\d{3}-.+\.md$/.test(name));

describe("decision records", () => {
  it("are numbered once each, without gaps", () => {
    const numbers = records.map((name) => Number(name.slice(0, 3))).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index));
  });

  it.each(records)("%s has the template's title, date and status line, and sections", (name) => {
    const text = readFileSync(path.join(folder, name), "utf8");
    const lines = text.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^# ${name.slice(0, 3)}\\. \\S`));
    expect(lines[1]).toBe("");
    expect(lines[2]).toMatch(/^Date: (\d{4}-\d{2}-\d{2}|YYYY-MM-DD) · Status: \S/);
    for (const section of ["## Context", "## Decision", "## Consequences"]) {
      expect(lines.some((line) => line.startsWith(section))).toBe(true);
    }
  });
});
