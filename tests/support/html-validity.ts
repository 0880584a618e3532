import { type DOMReadyEvent, type HtmlElement, HtmlValidate, type Message, Rule, definePlugin } from "html-validate";

/*
 * HTML validity of server-rendered pages (issue 38), checked with html-validate's presets for a valid document
 * (`standard`: the HTML standard's content models, attributes and ids; `document`: doctype, lang, title). Rules that
 * are style or advice rather than validity, and what the framework cannot help, are listed here with a reason each;
 * everything else fails the page.
 */
/** Runs `check` on every element named `tagName` once the document is parsed. */
abstract class ElementRule extends Rule {
  protected abstract readonly tagName: string;
  protected abstract check(element: HtmlElement): string | undefined;
  setup() {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      for (const element of event.document.querySelectorAll(this.tagName)) {
        const problem = this.check(element);
        if (problem) this.report(element, problem);
      }
    });
  }
}

/* Two rules of the HTML standard that the Nu Html Checker reported here and html-validate 10 has no rule for. */

class RequiredSelectPlaceholder extends ElementRule {
  protected readonly tagName = "select";
  protected check(select: HtmlElement) {
    const listBox = select.hasAttribute("multiple") || Number(select.getAttributeValue("size") ?? 1) > 1;
    if (!select.hasAttribute("required") || listBox) return undefined;
    const first = select.querySelector("option");
    if (first && first.getAttributeValue("value") === "" && first.parent === select) return undefined;
    return 'a required <select> needs an empty first <option value=""> (its placeholder)';
  }
}

const TEXT_TYPES = new Set(["text", "search", "url", "tel", "email", "password"]);
class TextAttributesOnTextInputs extends ElementRule {
  protected readonly tagName = "input";
  protected check(input: HtmlElement) {
    const type = (input.getAttributeValue("type") ?? "text").toLowerCase();
    if (TEXT_TYPES.has(type)) return undefined;
    const misused = ["maxlength", "minlength", "pattern"].filter((name) => input.hasAttribute(name));
    return misused.length ? `${misused.join(", ")} not allowed on <input type="${type}">` : undefined;
  }
}

const storeRules = definePlugin({
  name: "store",
  rules: {
    "store/required-select-placeholder": RequiredSelectPlaceholder,
    "store/text-attributes-on-text-inputs": TextAttributesOnTextInputs,
  },
});

const validator = new HtmlValidate({
  extends: ["html-validate:standard", "html-validate:document"],
  plugins: [storeRules],
  rules: {
    "store/required-select-placeholder": "error",
    "store/text-attributes-on-text-inputs": "error",
    // Subresource integrity is for files from other origins; every script and style here comes from the store's
    // own origin under a CSP of 'self' (ADR 044), and the build names each file by its content hash.
    "require-sri": "off",
  },
});

type Deviation = { rule: string; message: RegExp; reason: string };

/** What the framework renders that the standard does not allow, each with why it stays. */
export const KNOWN_DEVIATIONS: readonly Deviation[] = [
  {
    rule: "element-permitted-content",
    message: /^<style> element is not permitted as content under <(form|div|body)>/,
    reason:
      "the product form's no-JavaScript summary is a <style> of :has() rules for that form (issue 10, ADR 019): React 18 renders a " +
      "component's <style> where it stands and cannot hoist it into <head>; every browser applies it there",
  },
];

const deviationOf = (message: Message) =>
  KNOWN_DEVIATIONS.find((deviation) => deviation.rule === message.ruleId && deviation.message.test(message.message));

/** The page's problems, one line each (rule, message, where), without the known deviations. */
export async function htmlProblems(html: string, page: string): Promise<string[]> {
  const problems: string[] = [];
  // A U+0000 is never valid in a document (issue 38 found one); html-validate reads past it.
  if (html.includes("\u0000")) problems.push(`${page}: a NUL character at offset ${html.indexOf("\u0000")}`);
  const report = await validator.validateString(html, page);
  for (const result of report.results) {
    for (const message of result.messages) {
      if (deviationOf(message)) continue;
      problems.push(`${page} ${message.ruleId}: ${message.message} (${message.selector ?? `line ${message.line}`})`);
    }
  }
  return problems;
}
