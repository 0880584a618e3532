import { test } from "@playwright/test";

/*
 * Which browser project runs a check (ADR 062). A journey runs in both, JavaScript on and off. A check of what the
 * server sends (status, headers, links, meta tags) is the same in both, so one project runs it; a check of a
 * layout at two widths whose page works alike with JavaScript on and off runs each width once, the phone width
 * with JavaScript and the desktop without, so both modes and both widths are still seen.
 */

export type ProjectName = "js" | "no-js";

/**
 * Call in a file or a describe block: its tests run in `project` only. Decided from the project's option, before
 * any page or browser context is made for the test.
 */
export function onlyInProject(project: ProjectName, why: string) {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== (project === "js"), why);
}

/** Call in a describe block at one width: the phone width runs with JavaScript, the desktop width without. */
export function onlyInPairedProject(width: "phone" | "desktop") {
  onlyInProject(
    width === "phone" ? "js" : "no-js",
    "one width per project: phone with JavaScript, desktop without (ADR 062)",
  );
}
