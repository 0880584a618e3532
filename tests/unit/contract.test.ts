import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { newId } from "../../api/db/ids";
import { USERNAME_CHARACTERS } from "../../contract/account";
import { PUBLIC_ID_PATTERN, publicIdField } from "../../contract/ids";

describe("the public id pattern", () => {
  it("accepts every id the API makes", () => {
    for (let index = 0; index < 200; index++) expect(newId()).toMatch(PUBLIC_ID_PATTERN);
  });

  it("refuses anything else, with the field's message", () => {
    for (const id of [
      "",
      "A".repeat(21),
      "A".repeat(23),
      `${"A".repeat(21)}=`,
      `${"A".repeat(21)}/`,
      ` ${"A".repeat(22)}`,
    ]) {
      expect(PUBLIC_ID_PATTERN.test(id)).toBe(false);
    }
    expect(publicIdField("Unknown option").safeParse("nope").error?.issues[0].message).toBe("Unknown option");
  });
});

describe("patterns that become HTML pattern attributes", () => {
  it("compile with the v flag, as browsers read them (a bare - in a class does not)", () => {
    for (const pattern of [PUBLIC_ID_PATTERN, USERNAME_CHARACTERS]) {
      expect(() => new RegExp(`^(?:${pattern.source})$`, "v")).not.toThrow();
    }
  });
});

describe("the module boundaries", () => {
  const root = new URL("../../", import.meta.url);
  const importsOf = (file: string) =>
    [...readFileSync(new URL(file, root), "utf8").matchAll(/^import[^"]*"([^"]+)"/gm)].map((match) => match[1]);
  const sources = (folder: string) =>
    readdirSync(new URL(folder, root), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => `${folder}/${name}`);

  it("keeps contract/ free of the API, the UI and node: modules, so both the server and the browser can load it", () => {
    const contract = new URL("contract/", root).href;
    for (const file of sources("contract")) {
      for (const imported of importsOf(file)) {
        // zod, or another module of contract/ (contract/answers/ reads contract/browser/, for one).
        const inContract = imported.startsWith(".") && new URL(imported, new URL(file, root)).href.startsWith(contract);
        expect(imported === "zod" || inContract, `${file} imports ${imported}`).toBe(true);
      }
    }
  });

  it("keeps the UI off the process configuration: its settings come in the load context", () => {
    for (const file of sources("app"))
      expect(importsOf(file).filter((path) => path.endsWith("api/config"))).toEqual([]);
  });
});
