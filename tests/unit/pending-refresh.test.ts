import { describe, expect, it } from "vitest";
import { NO_JS_REFRESH_LIMIT, refreshAttempt, refreshDelaySeconds } from "../../app/components/order/pending-refresh";

describe("the no-JS reload of a pending order", () => {
  it("reads the attempt from the address, treating anything odd as the first", () => {
    expect(refreshAttempt(null)).toBe(0);
    expect(refreshAttempt("3")).toBe(3);
    for (const odd of ["", "-2", "1.5", "abc", "1e3x"]) expect(refreshAttempt(odd)).toBe(0);
    expect(refreshAttempt("999999")).toBe(NO_JS_REFRESH_LIMIT);
  });

  it("reloads every 5 s for a minute, then every 15 s, and gives up within five minutes", () => {
    expect(refreshDelaySeconds(0)).toBe(5);
    expect(refreshDelaySeconds(11)).toBe(5);
    expect(refreshDelaySeconds(12)).toBe(15);
    expect(refreshDelaySeconds(NO_JS_REFRESH_LIMIT)).toBeNull();
    let seconds = 0;
    let attempt = 0;
    for (let delay = refreshDelaySeconds(0); delay !== null; delay = refreshDelaySeconds(++attempt)) seconds += delay;
    expect(seconds).toBeLessThanOrEqual(5 * 60);
    // Each reload is an order lookup: the whole run stays well inside the API's 60 per 15 minutes.
    expect(attempt).toBeLessThanOrEqual(30);
  });
});
