import { describe, expect, it } from "vitest";
import {
  gestureOutcome,
  isNewWheelGesture,
  nextPair,
  sectionAtReadingLine,
  sectionForKey,
} from "../../app/components/landing/scroller-logic";

describe("sectionForKey", () => {
  it("moves one section with arrows and page keys, clamped at the ends", () => {
    expect(sectionForKey("ArrowDown", 0, 5)).toBe(1);
    expect(sectionForKey("PageDown", 3, 5)).toBe(4);
    expect(sectionForKey("ArrowDown", 4, 5)).toBe(4);
    expect(sectionForKey("ArrowUp", 2, 5)).toBe(1);
    expect(sectionForKey("PageUp", 0, 5)).toBe(0);
  });

  it("jumps to the first and last section with Home and End", () => {
    expect(sectionForKey("Home", 3, 5)).toBe(0);
    expect(sectionForKey("End", 1, 5)).toBe(4);
  });

  it("ignores every other key", () => {
    for (const key of ["Tab", " ", "Enter", "ArrowLeft", "a"]) expect(sectionForKey(key, 2, 5)).toBeNull();
  });
});

describe("gestureOutcome", () => {
  const fitting = {
    sectionTop: 0,
    sectionBottom: 800,
    viewportHeight: 800,
    index: 1,
    count: 5,
    confirmLeave: false,
    armed: false,
  };

  it("goes to the neighbouring section when the section fits the window", () => {
    expect(gestureOutcome({ ...fitting, direction: 1 })).toBe("go");
    expect(gestureOutcome({ ...fitting, direction: -1 })).toBe("go");
  });

  it("lets a tall section scroll until its edge", () => {
    const tall = { ...fitting, sectionTop: -300, sectionBottom: 1200 };
    expect(gestureOutcome({ ...tall, direction: 1 })).toBe("native");
    expect(gestureOutcome({ ...tall, direction: -1 })).toBe("native");
    expect(gestureOutcome({ ...tall, sectionBottom: 800, direction: 1 })).toBe("go");
  });

  it("stays at the first and last section", () => {
    expect(gestureOutcome({ ...fitting, index: 0, direction: -1 })).toBe("stay");
    expect(gestureOutcome({ ...fitting, index: 4, direction: 1 })).toBe("stay");
  });

  it("asks for a second gesture before leaving a confirm-leave section (the FAQ)", () => {
    const faq = { ...fitting, index: 3, confirmLeave: true };
    expect(gestureOutcome({ ...faq, direction: 1 })).toBe("hint");
    expect(gestureOutcome({ ...faq, direction: 1, armed: true })).toBe("go");
    expect(gestureOutcome({ ...faq, direction: -1 })).toBe("hint");
  });
});

describe("sectionAtReadingLine", () => {
  it("picks the last section whose top is above 40% of the window", () => {
    expect(sectionAtReadingLine([0, 800, 1600], 800)).toBe(0);
    expect(sectionAtReadingLine([-500, 300, 1100], 800)).toBe(1);
    expect(sectionAtReadingLine([-1600, -800, 0], 800)).toBe(2);
  });
});

describe("isNewWheelGesture", () => {
  it("treats a pause or a stronger push as a new gesture, and fading momentum as the same one", () => {
    expect(isNewWheelGesture({ gapMs: 500, delta: 4, previousDelta: 100 })).toBe(true);
    expect(isNewWheelGesture({ gapMs: 16, delta: 120, previousDelta: 20 })).toBe(true);
    expect(isNewWheelGesture({ gapMs: 16, delta: 40, previousDelta: 45 })).toBe(false);
  });
});

describe("nextPair", () => {
  it("cycles both ways", () => {
    expect(nextPair(0, 2)).toBe(1);
    expect(nextPair(1, 2)).toBe(0);
    expect(nextPair(0, 2, -1)).toBe(1);
  });
});
