import type { AppLoadContext } from "@remix-run/node";
import { cookiesOf } from "./cookies.server";

/*
 * Lite mode (issue 18): every page works without JavaScript, so a visitor who asks to save data (the
 * browser's `Save-Data: on`) or turns Lite mode on in the footer gets pages with no script at all.
 */

export type LiteMode = { on: boolean; reason: "switch" | "save-data" | null };

export function savesData(request: Request): boolean {
  return (request.headers.get("save-data") ?? "").trim().toLowerCase() === "on";
}

export async function liteModeOf(request: Request, context: AppLoadContext): Promise<LiteMode> {
  if ((await cookiesOf(context).lite.read(request)) === "1") return { on: true, reason: "switch" };
  if (savesData(request)) return { on: true, reason: "save-data" };
  return { on: false, reason: null };
}
