import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashInlineScripts } from "../../server/page-cache";

const hashOf = (code: string) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`;

describe("a stored page's inline scripts", () => {
  it("are allowed by hash only when the rendering gave them its nonce, and the spent nonce is removed", () => {
    const html =
      '<script nonce="n0nce">window.a=1</script><p>review: <script>steal()</script></p>' +
      '<script nonce="n0nce" type="module" src="/assets/x.js"></script><script nonce="n0nce">import "/assets/y.js"</script>';
    const { sources, html: stored } = hashInlineScripts(html, "n0nce");
    expect(sources).toEqual([hashOf("window.a=1"), hashOf('import "/assets/y.js"')]);
    expect(sources).not.toContain(hashOf("steal()"));
    expect(stored).not.toContain("n0nce");
  });
});
