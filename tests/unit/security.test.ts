import { describe, expect, it } from "vitest";
import { originAllowed } from "../../api/security";
import { contentSecurityPolicy } from "../../server/security-headers";

const publicUrl = "https://store.example";
// What the server sees as its own origin when reached directly (no proxy in front).
const requestOrigin = "http://localhost:7400";

describe("originAllowed", () => {
  it.each(["GET", "HEAD", "OPTIONS", "get"])("always lets %s through, even cross-site", (method) => {
    expect(
      originAllowed(
        method,
        { "sec-fetch-site": "cross-site", origin: "http://evil.example" },
        publicUrl,
        requestOrigin,
      ),
    ).toBe(true);
  });

  it("allows a same-origin form post", () => {
    expect(
      originAllowed("POST", { "sec-fetch-site": "same-origin", origin: publicUrl }, publicUrl, requestOrigin),
    ).toBe(true);
  });

  it("allows a post whose Origin is the address the request came in on", () => {
    expect(originAllowed("POST", { origin: requestOrigin }, publicUrl, requestOrigin)).toBe(true);
  });

  it("allows a post the user started themselves (Sec-Fetch-Site: none)", () => {
    expect(originAllowed("POST", { "sec-fetch-site": "none" }, publicUrl, requestOrigin)).toBe(true);
  });

  it.each(["cross-site", "same-site"])("refuses a post marked Sec-Fetch-Site: %s", (site) => {
    expect(originAllowed("POST", { "sec-fetch-site": site }, publicUrl, requestOrigin)).toBe(false);
  });

  it("refuses a cross-site post even when Origin claims to be ours", () => {
    expect(originAllowed("POST", { "sec-fetch-site": "cross-site", origin: publicUrl }, publicUrl, requestOrigin)).toBe(
      false,
    );
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("refuses %s from a foreign Origin without Sec-Fetch-Site", (method) => {
    expect(originAllowed(method, { origin: "http://evil.example" }, publicUrl, requestOrigin)).toBe(false);
  });

  it("refuses a look-alike origin that only shares a prefix", () => {
    expect(originAllowed("POST", { origin: "https://store.example.evil.example" }, publicUrl, requestOrigin)).toBe(
      false,
    );
  });

  it("refuses the opaque 'null' origin (sandboxed frames, data: pages)", () => {
    expect(originAllowed("POST", { origin: "null" }, publicUrl, requestOrigin)).toBe(false);
  });

  it("allows a post with neither header: a non-browser client carries no victim's cookies", () => {
    expect(originAllowed("POST", {}, publicUrl, requestOrigin)).toBe(true);
  });
});

describe("the pages' Content-Security-Policy", () => {
  it("lets every kind of resource come from the store itself only, never a third party (ADR 044)", () => {
    const policy = contentSecurityPolicy(["'nonce-abc'"]);
    const directives = new Map(
      policy.split(";").map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name, sources] as const;
      }),
    );
    expect(directives.get("img-src")).toEqual(["'self'", "data:"]);
    // form-action is not a load: a checkout form's answer redirects to the payment provider's page.
    for (const [name, sources] of directives) {
      if (name === "form-action") continue;
      for (const source of sources) expect(source, name).not.toMatch(/^(https?:|\*|[a-z0-9.-]+\.[a-z]{2,})/i);
    }
  });
});
