import { createHash, randomBytes } from "node:crypto";

/** 128 random bits, base64url: unguessable, URL-safe, 22 characters. */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}

/** A stable id for demo rows, so seeding twice finds the same rows. */
export function demoId(kind: string, slug: string): string {
  return createHash("sha256").update(`demo:${kind}:${slug}`).digest("base64url").slice(0, 22);
}
