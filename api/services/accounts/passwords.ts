import { hash, parseOptions, verify } from "@node-rs/argon2";
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "../../../contract/account";
import { COMMON_PASSWORDS } from "./common-passwords";

/**
 * OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane). The package's default algorithm is
 * argon2id (its `Algorithm` is an ambient const enum, which isolatedModules cannot reference).
 */
const HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the time of a real verification when there is no account to check against,
 * so the answer time does not tell whether a username exists.
 */
export async function verifyAgainstNobody(password: string): Promise<false> {
  dummyHash ??= hashPassword("no account has this password, it only costs time");
  await verifyPassword(await dummyHash, password);
  return false;
}

/** True when a hash was made with weaker (or other) settings than today's, so it is worth redoing at sign-in. */
export function needsRehash(storedHash: string): boolean {
  try {
    const used = parseOptions(storedHash);
    return (
      used.algorithm !== ARGON2ID ||
      used.memoryCost !== HASH_OPTIONS.memoryCost ||
      used.timeCost !== HASH_OPTIONS.timeCost ||
      used.parallelism !== HASH_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}

/**
 * The password rules of every form that sets a password. Returns the message to show, or
 * undefined when the password is acceptable. Length counts characters, not bytes, and any
 * character is allowed (ASVS 2.1): no composition rules, a block list instead.
 */
export function passwordProblem(
  password: string,
  account: { username?: string; email?: string } = {},
): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_TOO_LONG;
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return "This password is too common. Please choose a less predictable one";
  const sameAs = [account.username, account.email, account.email?.split("@")[0]];
  if (sameAs.some((value) => value && value.toLowerCase() === lowered)) {
    return "Password must not be your username or email";
  }
  return undefined;
}
