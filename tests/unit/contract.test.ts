import { newId } from "../../api/db/ids";
import { describe, expect, it } from "vitest";
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

  it("compiles as an HTML pattern, which browsers read with the v flag", () => {
    // getZodConstraint copies the regex source into the input's pattern attribute.
    expect(() => new RegExp(`^(?:${PUBLIC_ID_PATTERN.source})$`, "v")).not.toThrow();
  });
});
