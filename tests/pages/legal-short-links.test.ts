import { describe, expect, it } from "vitest";
import * as privacyShortLink from "../../app/routes/privacy";
import * as termsShortLink from "../../app/routes/terms";

/*
 * The legal documents' short addresses (/terms, /privacy) redirect permanently to their one address. Moved down
 * from tests/e2e/faq-legal.spec.ts (ADR 062): a status and a Location header, the same with JavaScript on or off;
 * the browser suite still opens both documents.
 */

describe("the legal documents' short links", () => {
  it.each([
    { shortPath: "/terms", module: termsShortLink, path: "/terms-of-service" },
    { shortPath: "/privacy", module: privacyShortLink, path: "/privacy-policy" },
  ])("$shortPath answers 301 to $path", async ({ module, path }) => {
    const answer = module.loader();
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe(path);
  });
});
