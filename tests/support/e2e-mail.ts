import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "@playwright/test";
import { e2eDataDir } from "../../playwright.config";

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Undoes quoted-printable: soft line breaks and =XX escapes (UTF-8). */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}

/** The newest mail to `email` in the e2e server's outbox (DATA_DIR/outbox/*.eml), decoded. */
export async function readMailTo(email: string, subject: RegExp): Promise<string> {
  const outbox = path.join(e2eDataDir, "outbox");
  let found = "";
  await expect
    .poll(
      async () => {
        const names = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith(".eml"));
        for (const name of names.sort().reverse()) {
          const mail = await readFile(path.join(outbox, name), "utf8");
          if (new RegExp(`^To: ${escapeRegExp(email)}$`, "mi").test(mail) && subject.test(mail)) {
            found = decodeQuotedPrintable(mail);
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `a mail to ${email}` },
    )
    .toBe(true);
  return found;
}
