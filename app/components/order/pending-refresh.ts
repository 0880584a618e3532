/*
 * Without JavaScript a pending order's page reloads itself (a meta refresh inside <noscript>), so the
 * credentials appear when the payment webhook lands. Every reload is an order lookup, which the API
 * limits to 60 per address in 15 minutes: quick at first, when most webhooks land, then slower, then
 * it stops and leaves a "Check again" link. The attempt travels in the address (?refresh=n).
 */
const QUICK = { attempts: 12, seconds: 5 };
const SLOW = { attempts: 12, seconds: 15 };
export const NO_JS_REFRESH_LIMIT = QUICK.attempts + SLOW.attempts;

/** The attempt a page address carries; anything unreadable counts as the first. */
export function refreshAttempt(value: string | null): number {
  const attempt = Number(value);
  return Number.isInteger(attempt) && attempt > 0 ? Math.min(attempt, NO_JS_REFRESH_LIMIT) : 0;
}

/** Seconds before the next reload after `attempt` reloads, or null once it has given up. */
export function refreshDelaySeconds(attempt: number): number | null {
  if (attempt < QUICK.attempts) return QUICK.seconds;
  if (attempt < NO_JS_REFRESH_LIMIT) return SLOW.seconds;
  return null;
}
