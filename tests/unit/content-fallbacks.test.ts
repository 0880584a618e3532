import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../api/logger";
import { demoDocuments } from "../../api/db/demo-data";
import { blocksOf, withoutSections } from "../../app/components/legal/document-blocks";
import { RETENTION_SECTION_TITLES } from "../../app/components/legal/retention-sections";
import {
  DEFAULT_FAQS,
  faqsToShow,
  paragraphsOf,
  readAnnouncement,
  readFaqs,
  readLegalDocument,
} from "../../app/lib/content.server";

/** A load context whose /v1 answers with whatever the test says, so no server is needed. */
function contextAnswering(answer: (path: string) => Response | Promise<Response>): AppLoadContext {
  return {
    cspNonce: "",
    callApi: async (path: string) => answer(path),
    requestId: "test-request",
    logger: createLogger("silent"),
    settings: { sessionSecrets: ["unused"], servedOverHttps: false, inlineStylesheet: null, trustsApiAnswers: false },
  };
}
const envelope = (payload: unknown, status = 200) =>
  Response.json(status < 400 ? { success: true, message: "OK", payload } : { success: false, message: "Nope" }, {
    status,
  });

/** A public id as the API answers it (22 characters). */
const publicId = (letter: string) => letter.repeat(22);
const serverFaqs = [
  { _id: publicId("a"), id: publicId("a"), question: "Can I pay with Litecoin?", answer: "Yes." },
  {
    _id: publicId("b"),
    id: publicId("b"),
    question: "Is it legal?",
    answer: "Yes, every account is bought from its provider.",
  },
];

describe("faqsToShow", () => {
  it("keeps the server's entries", () => {
    expect(faqsToShow(serverFaqs)).toEqual(serverFaqs);
  });

  it("uses the five built-in entries when the server gives none or fails", () => {
    expect(DEFAULT_FAQS).toHaveLength(5);
    expect(faqsToShow([])).toEqual(DEFAULT_FAQS);
    expect(faqsToShow(null)).toEqual(DEFAULT_FAQS);
  });

  it("leaves out entries with an empty answer or question, and falls back when none is left", () => {
    const partly = [
      ...serverFaqs,
      { _id: "c", question: "Blank?", answer: "  " },
      { _id: "d", question: "", answer: "x" },
    ];
    expect(faqsToShow(partly)).toEqual(serverFaqs);
    expect(faqsToShow([{ _id: "c", question: "Blank?", answer: "" }])).toEqual(DEFAULT_FAQS);
  });
});

describe("readFaqs", () => {
  it("shows the server's FAQ", async () => {
    expect(await readFaqs(contextAnswering(() => envelope(serverFaqs)))).toEqual(serverFaqs);
  });

  it.each([
    ["a 500", () => envelope(null, 500)],
    ["a 401", () => envelope(null, 401)],
    ["a broken answer", () => new Response("<html>", { status: 200 })],
    ["a wrong shape", () => envelope([{ question: 1 }])],
    ["a network failure", () => Promise.reject(new Error("ECONNREFUSED"))],
  ])("falls back to the built-in FAQ on %s", async (_label, answer) => {
    expect(await readFaqs(contextAnswering(answer))).toEqual(DEFAULT_FAQS);
  });
});

describe("readAnnouncement", () => {
  it("gives the text, or null when there is none or the call fails", async () => {
    expect(await readAnnouncement(contextAnswering(() => envelope({ text: " Ethically sourced. " })))).toBe(
      "Ethically sourced.",
    );
    expect(await readAnnouncement(contextAnswering(() => envelope(null)))).toBeNull();
    expect(await readAnnouncement(contextAnswering(() => envelope(null, 500)))).toBeNull();
  });
});

describe("readLegalDocument", () => {
  it("asks for the named document and splits it into paragraphs", async () => {
    const asked: string[] = [];
    const document = await readLegalDocument(
      contextAnswering((path) => {
        asked.push(path);
        return envelope([
          { _id: publicId("x"), name: "privacy-policy", description: "First.\r\n\r\nSecond\nline.\n\n\n" },
        ]);
      }),
      "privacy-policy",
    );
    expect(asked).toEqual(["/v1/doc/read?name=privacy-policy"]);
    expect(document).toMatchObject({
      title: "Privacy Policy",
      paragraphs: ["First.", "Second\nline."],
      builtIn: false,
    });
  });

  it("uses the built-in text when none is configured or the call fails", async () => {
    for (const answer of [
      () => envelope([]),
      () => envelope(null, 500),
      () => envelope([{ _id: publicId("x"), name: "terms-of-service", description: " " }]),
    ]) {
      const document = await readLegalDocument(contextAnswering(answer), "terms-of-service");
      expect(document.builtIn).toBe(true);
      expect(document.paragraphs.length).toBeGreaterThan(5);
    }
  });
});

describe("blocksOf", () => {
  it("reads title lines, marked headings and lists, and drops a heading equal to the page title", () => {
    const paragraphs = paragraphsOf(
      "Terms of Service\n\nThese terms apply.\n\nWhat we sell\nAccounts and subscriptions.\n\n## Cookies\n\n- one\n- two",
    );
    expect(blocksOf(paragraphs, "Terms of Service")).toEqual([
      { kind: "paragraph", text: "These terms apply." },
      { kind: "heading", text: "What we sell" },
      { kind: "paragraph", text: "Accounts and subscriptions." },
      { kind: "heading", text: "Cookies" },
      { kind: "list", items: ["one", "two"] },
    ]);
  });
});

describe("withoutSections", () => {
  it("leaves out the editable text's sections that the store states itself, heading to next heading (issue 38)", () => {
    // The demo's privacy policy once said rights go through a ticket answered within 30 days, while the store's
    // own section says people export and delete their data themselves in Settings.
    const paragraphs = paragraphsOf(
      "Cookies\nOnly the ones we need.\n\n## How long we keep it\n\nAs long as the law requires.\n\n" +
        "your rights\nAsk by ticket. We answer within 30 days.\n\n- a list under it\n\nChanges\nWe may update it.",
    );
    expect(withoutSections(blocksOf(paragraphs, "Privacy Policy"), RETENTION_SECTION_TITLES)).toEqual([
      { kind: "heading", text: "Cookies" },
      { kind: "paragraph", text: "Only the ones we need." },
      { kind: "heading", text: "Changes" },
      { kind: "paragraph", text: "We may update it." },
    ]);
  });

  it("the demo's privacy policy has no section the store states itself", () => {
    const demo = demoDocuments.find((document) => document.name === "privacy-policy");
    const blocks = blocksOf(paragraphsOf(demo?.description ?? ""), "Privacy Policy");
    expect(withoutSections(blocks, RETENTION_SECTION_TITLES)).toEqual(blocks);
  });
});
