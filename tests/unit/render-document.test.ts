import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { renderDocument } from "../../app/lib/render-document.server";

/*
 * Issue 38: a NUL byte in the HTML of /tickets/{id}. React 18.3's Node renderer encodes text into 2,048-byte
 * views and, when a multi-byte character does not fit in the rest of one, sends the whole view, unused zero
 * bytes included (fixed upstream in React 19, react#26228). The order label's "·" (2 bytes in UTF-8) met that
 * boundary. Each case here puts a multi-byte character across every offset of the first view.
 */
describe("a rendered document", () => {
  /** Short texts, as a page has them: a long one is encoded on its own and never meets the boundary. */
  const render = (lead: string, label: string) =>
    renderDocument(
      createElement(
        "html",
        null,
        createElement(
          "body",
          null,
          createElement("p", null, lead),
          Array.from({ length: 70 }, (_, index) => createElement("p", { key: index }, "fifty bytes of text")),
          createElement("p", null, label),
        ),
      ),
      { nonce: "", onError: () => {}, timeoutMs: 5_000 },
    );

  it.each([
    ["·", "a 2-byte character"],
    ["€", "a 3-byte character"],
    ["😀", "a 4-byte character"],
  ])("holds no NUL byte and keeps %s (%s) whole at every chunk boundary", async (character) => {
    const label = `Netflix ${character} Nov 28, 2026 ${character} a1b2c3d4`;
    for (let padding = 0; padding < 300; padding++) {
      const html = await render("x".repeat(padding), label);
      expect(html.includes(0), `padding ${padding}`).toBe(false);
      expect(html.toString("utf8"), `padding ${padding}`).toContain(label);
    }
  });

  it("reports no error once the document is whole, even after its time to give up has passed", async () => {
    const errors: unknown[] = [];
    const html = await renderDocument(createElement("p", null, "done"), {
      nonce: "",
      onError: (error) => errors.push(error),
      timeoutMs: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(html.toString("utf8")).toBe("<p>done</p>");
    expect(errors).toEqual([]);
  });
});
