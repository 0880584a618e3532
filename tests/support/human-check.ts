import { expect, type Locator } from "@playwright/test";

/** Answers the visible human-check question ("Quick check: What is 3 plus 4?") inside `scope`, as a person would. */
export async function answerHumanCheckQuestion(scope: Locator) {
  const question = scope.getByRole("group", { name: /^Quick check: What is \d+ plus \d+\?$/ });
  await expect(question).toBeVisible();
  const legend = (await question.locator("legend").textContent()) ?? "";
  const [, a, b] = /What is (\d+) plus (\d+)\?/.exec(legend) ?? [];
  await question.getByRole("radio", { name: String(Number(a) + Number(b)), exact: true }).check();
}
