/*
 * The rules of the landing page's section scroller, kept free of the DOM so they can be tested.
 */

/** Time between two section changes, so one flick of a wheel or a finger moves one section. */
export const SECTION_LOCK_MS = 1200;
/** How long a "swipe again" hint stays up. */
export const BOUNDARY_HINT_MS = 1500;
/** A finger must travel this far (px) to count as a swipe. */
export const SWIPE_THRESHOLD_PX = 40;

export type Direction = 1 | -1;

/** The section a key leads to from `current`, or null when the key is not a scroller key. */
export function sectionForKey(key: string, current: number, count: number): number | null {
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
    case "PageDown":
      return Math.min(current + 1, last);
    case "ArrowUp":
    case "PageUp":
      return Math.max(current - 1, 0);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}

export function directionOfKey(key: string): Direction | null {
  if (key === "ArrowDown" || key === "PageDown") return 1;
  if (key === "ArrowUp" || key === "PageUp") return -1;
  return null;
}

/**
 * What a scroll gesture in `direction` should do in the current section:
 * - "native": the section is taller than the window and has more to show that way: let the page scroll;
 * - "hint": a section that asks for confirmation (the FAQ) is at its edge: show "swipe again" first;
 * - "go": move to the neighbouring section;
 * - "stay": there is no section that way.
 */
export type GestureOutcome = "native" | "hint" | "go" | "stay";

export function gestureOutcome(input: {
  direction: Direction;
  /** The section's top and bottom relative to the window (getBoundingClientRect). */
  sectionTop: number;
  sectionBottom: number;
  viewportHeight: number;
  index: number;
  count: number;
  /** The section wants a second gesture before it is left. */
  confirmLeave: boolean;
  /** A hint for this direction was already shown and not yet used. */
  armed: boolean;
}): GestureOutcome {
  const slack = 2;
  if (input.direction === 1 && input.sectionBottom > input.viewportHeight + slack) return "native";
  if (input.direction === -1 && input.sectionTop < -slack) return "native";
  const target = input.index + input.direction;
  if (target < 0 || target >= input.count) return "stay";
  if (input.confirmLeave && !input.armed) return "hint";
  return "go";
}

/** The section that fills the reading line (40% down the window): the last one whose top is above it. */
export function sectionAtReadingLine(sectionTops: readonly number[], viewportHeight: number): number {
  const line = viewportHeight * 0.4;
  let found = 0;
  sectionTops.forEach((top, index) => {
    if (top <= line) found = index;
  });
  return found;
}

/**
 * Trackpads keep sending wheel events for a second or two after a flick (momentum). A wheel event
 * starts a new gesture when it follows a pause, or when it is stronger than the one before.
 */
export function isNewWheelGesture(input: { gapMs: number; delta: number; previousDelta: number }): boolean {
  return input.gapMs > 160 || Math.abs(input.delta) > Math.abs(input.previousDelta) * 1.5;
}

/** Feature pairs rotate every 6 s; a manual change holds the rotation for 10 s. */
export const FEATURE_ROTATE_MS = 6000;
export const FEATURE_RESUME_MS = 10000;

export function nextPair(current: number, pairCount: number, step: 1 | -1 = 1): number {
  return (current + step + pairCount) % pairCount;
}
