import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookRejected } from "./types";

export function hmacHex(algorithm: "sha256" | "sha512", secret: string, payload: string): string {
  return createHmac(algorithm, secret).update(payload, "utf8").digest("hex");
}

/** Compares a received hex signature with the expected one in constant time; any malformed value is a mismatch. */
export function hexSignatureMatches(received: string, expected: string): boolean {
  const candidate = received.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(candidate) || candidate.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(candidate, "hex"), Buffer.from(expected, "hex"));
}

/** How far ahead of our clock a signed timestamp may be: clocks drift, a little, never an hour. */
export const CLOCK_SKEW_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * The freshness check for every gateway that signs a time: an event signed more than maxAgeMs ago is a
 * replay, and one signed in the future beyond the clock skew is as suspect (a captured event stamped ahead
 * would outlive the window). Both are "stale"; so is a time that is not a number.
 */
export function assertSignedRecently(signedAtMs: number, now: Date, maxAgeMs: number, what: string): void {
  const age = now.getTime() - signedAtMs;
  if (!Number.isFinite(age) || age > maxAgeMs || age < -CLOCK_SKEW_TOLERANCE_MS) {
    throw new WebhookRejected("stale", `${what} is outside the accepted time window`);
  }
}

/** Parses a body whose signature has already been checked. */
export function parseSignedJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new WebhookRejected("malformed", "the webhook body is not JSON");
  }
}

/** The one header a gateway signs with; absent means the request is not from the provider. */
export function requiredHeader(headers: Headers, name: string): string {
  const value = headers.get(name);
  if (!value) throw new WebhookRejected("signature", `the ${name} header is missing`);
  return value;
}
