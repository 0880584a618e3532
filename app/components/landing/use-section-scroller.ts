import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import {
  BOUNDARY_HINT_MS,
  type Direction,
  SECTION_LOCK_MS,
  SWIPE_THRESHOLD_PX,
  directionOfKey,
  gestureOutcome,
  isNewWheelGesture,
  sectionAtReadingLine,
  sectionForKey,
} from "./scroller-logic";

/** After a "swipe again" hint, the rest of the same flick must not count as the second swipe. */
const HINT_LOCK_MS = 450;

type GoToOptions = {
  /** Ignore the lock: a click on a dot is a deliberate choice, never an accident of momentum. */
  force?: boolean;
  /** Move keyboard focus to the section, so Tab continues from there. */
  focus?: boolean;
  /** Coming up into a tall section shows its end, where the reader left it. */
  fromBelow?: boolean;
};

function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable || target.closest("input, textarea, select, [role='slider'], [role='listbox']") !== null
  );
}

/** True when an element between the target and the section can itself scroll further that way. */
function scrollsInside(target: EventTarget | null, direction: Direction): boolean {
  let element = target instanceof Element ? target : null;
  while (element && element !== document.body && !element.hasAttribute("data-section")) {
    const { overflowY } = getComputedStyle(element);
    if ((overflowY === "auto" || overflowY === "scroll") && element.scrollHeight > element.clientHeight) {
      const canScroll =
        direction === 1 ? element.scrollTop + element.clientHeight < element.scrollHeight - 1 : element.scrollTop > 0;
      if (canScroll) return true;
    }
    element = element.parentElement;
  }
  return false;
}

/**
 * A full-page scroller over the page's own scrolling: the sections stay ordinary blocks (so the page
 * without JavaScript is the same page), and wheel, touch and keys move one whole section at a time.
 * A section taller than the window scrolls normally until its edge, so nothing is ever cut off.
 */
export function useSectionScroller(sectionIds: readonly string[], confirmLeaveIds: readonly string[]) {
  const [active, setActive] = useState(0);
  const enhanced = useHydrated();
  /** The direction of a "swipe again" hint on screen, if any. */
  const [hint, setHint] = useState<Direction | null>(null);
  const activeRef = useRef(0);
  const lockedUntil = useRef(0);
  const armed = useRef<Direction | null>(null);
  const hintTimer = useRef<ReturnType<typeof setTimeout>>();

  const sectionElement = useCallback((index: number) => document.getElementById(sectionIds[index]), [sectionIds]);

  const makeActive = useCallback((index: number) => {
    if (index === activeRef.current) return;
    activeRef.current = index;
    armed.current = null;
    setActive(index);
    setHint(null);
  }, []);

  const goTo = useCallback(
    (index: number, options: GoToOptions = {}) => {
      const target = Math.max(0, Math.min(index, sectionIds.length - 1));
      const now = Date.now();
      if (!options.force && now < lockedUntil.current) return;
      const element = sectionElement(target);
      if (!element) return;
      lockedUntil.current = now + SECTION_LOCK_MS;
      makeActive(target);
      const tall = element.offsetHeight > window.innerHeight + 2;
      element.scrollIntoView({
        behavior: prefersReducedMotion() ? "auto" : "smooth",
        block: options.fromBelow && tall ? "end" : "start",
      });
      if (options.focus) element.focus({ preventScroll: true });
      window.history.replaceState(window.history.state, "", `#${sectionIds[target]}`);
    },
    [makeActive, sectionElement, sectionIds],
  );

  useEffect(() => {
    const sectionTops = () => sectionIds.map((id) => document.getElementById(id)?.getBoundingClientRect().top ?? 0);
    const syncToScroll = () => makeActive(sectionAtReadingLine(sectionTops(), window.innerHeight));
    syncToScroll();

    const outcomeFor = (direction: Direction) => {
      const index = activeRef.current;
      const element = sectionElement(index);
      if (!element) return "stay" as const;
      const rect = element.getBoundingClientRect();
      return gestureOutcome({
        direction,
        sectionTop: rect.top,
        sectionBottom: rect.bottom,
        viewportHeight: window.innerHeight,
        index,
        count: sectionIds.length,
        confirmLeave: confirmLeaveIds.includes(sectionIds[index]),
        armed: armed.current === direction,
      });
    };

    const act = (direction: Direction) => {
      const outcome = outcomeFor(direction);
      if (outcome === "go") goTo(activeRef.current + direction, { fromBelow: direction === -1 });
      if (outcome === "hint") {
        armed.current = direction;
        lockedUntil.current = Date.now() + HINT_LOCK_MS;
        setHint(direction);
        clearTimeout(hintTimer.current);
        hintTimer.current = setTimeout(() => setHint(null), BOUNDARY_HINT_MS);
      }
    };

    let lastWheel = { at: 0, delta: 0 };
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return;
      const direction: Direction = event.deltaY > 0 ? 1 : -1;
      if (scrollsInside(event.target, direction) || outcomeFor(direction) === "native") return;
      event.preventDefault();
      const now = Date.now();
      const fresh = isNewWheelGesture({
        gapMs: now - lastWheel.at,
        delta: event.deltaY,
        previousDelta: lastWheel.delta,
      });
      lastWheel = { at: now, delta: event.deltaY };
      if (fresh && now >= lockedUntil.current) act(direction);
    };

    let touch: { x: number; y: number; mode: "undecided" | "native" | "gesture" } | null = null;
    const onTouchStart = (event: TouchEvent) => {
      const point = event.touches[0];
      touch = event.touches.length === 1 && point ? { x: point.clientX, y: point.clientY, mode: "undecided" } : null;
    };
    const onTouchMove = (event: TouchEvent) => {
      const point = event.touches[0];
      if (!touch || !point) return;
      const dy = touch.y - point.clientY;
      if (touch.mode === "undecided") {
        if (Math.abs(dy) < 8 && Math.abs(touch.x - point.clientX) < 8) return;
        const direction: Direction = dy > 0 ? 1 : -1;
        const sideways = Math.abs(touch.x - point.clientX) > Math.abs(dy);
        touch.mode =
          sideways || scrollsInside(event.target, direction) || outcomeFor(direction) === "native"
            ? "native"
            : "gesture";
      }
      if (touch.mode === "gesture" && event.cancelable) event.preventDefault();
    };
    const onTouchEnd = (event: TouchEvent) => {
      const point = event.changedTouches[0];
      const gesture = touch;
      touch = null;
      if (!gesture || gesture.mode !== "gesture" || !point) return;
      const dy = gesture.y - point.clientY;
      if (Math.abs(dy) < SWIPE_THRESHOLD_PX || Date.now() < lockedUntil.current) return;
      act(dy > 0 ? 1 : -1);
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (isEditable(event.target)) return;
      const target = sectionForKey(event.key, activeRef.current, sectionIds.length);
      // At either end the key keeps its usual meaning (End on a tall last section scrolls to its foot).
      if (target === null || target === activeRef.current) return;
      const direction = directionOfKey(event.key);
      if (direction !== null && (scrollsInside(event.target, direction) || outcomeFor(direction) === "native")) return;
      event.preventDefault();
      goTo(target, { focus: true, fromBelow: direction === -1 });
    };

    // Tab, find-in-page and restored positions scroll the page on their own: follow them.
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (Date.now() >= lockedUntil.current) syncToScroll();
      });
    };
    const onFocusIn = (event: FocusEvent) => {
      const section = event.target instanceof Element ? event.target.closest("[data-section]") : null;
      const index = section ? sectionIds.indexOf(section.id) : -1;
      if (index >= 0) makeActive(index);
    };

    // In-page links (dots, "Why choose us") move the scroller instead of jumping.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
      const index = link ? sectionIds.indexOf(link.getAttribute("href")?.slice(1) ?? "") : -1;
      if (index < 0) return;
      event.preventDefault();
      goTo(index, { force: true, focus: true });
    };

    window.addEventListener("wheel", onWheel, { passive: false });
    window.addEventListener("touchstart", onTouchStart, { passive: true });
    window.addEventListener("touchmove", onTouchMove, { passive: false });
    window.addEventListener("touchend", onTouchEnd, { passive: true });
    window.addEventListener("keydown", onKeyDown);
    window.addEventListener("scroll", onScroll, { passive: true });
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("click", onClick);
    return () => {
      window.removeEventListener("wheel", onWheel);
      window.removeEventListener("touchstart", onTouchStart);
      window.removeEventListener("touchmove", onTouchMove);
      window.removeEventListener("touchend", onTouchEnd);
      window.removeEventListener("keydown", onKeyDown);
      window.removeEventListener("scroll", onScroll);
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("click", onClick);
      cancelAnimationFrame(frame);
      clearTimeout(hintTimer.current);
    };
  }, [confirmLeaveIds, goTo, makeActive, sectionElement, sectionIds]);

  return { active, enhanced, hint };
}
