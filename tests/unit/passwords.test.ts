import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "../../api/services/accounts/common-passwords";
import {
  hashPassword,
  needsRehash,
  passwordProblem,
  verifyAgainstNobody,
  verifyPassword,
} from "../../api/services/accounts/passwords";

describe("password hashing", () => {
  it("makes salted argon2id hashes with at least 19 MiB, 2 passes, 1 lane", async () => {
    const first = await hashPassword("correct horse battery staple");
    const second = await hashPassword("correct horse battery staple");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(needsRehash(first)).toBe(false);
  });

  it("verifies the right password only, and never throws on a broken hash", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword(stored, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(stored, "Correct horse battery staple")).toBe(false);
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
    expect(await verifyAgainstNobody("anything")).toBe(false);
  });

  it("asks for a rehash of weaker or foreign hashes", async () => {
    expect(needsRehash(await hash("x", { memoryCost: 4096, timeCost: 1, parallelism: 1 }))).toBe(true);
    expect(needsRehash("$2b$10$abcdefghijklmnopqrstuv")).toBe(true);
  });
});

describe("passwordProblem", () => {
  it("accepts 8 to 128 characters of anything, counted as characters", () => {
    expect(passwordProblem("tr0ub4dor&3 horse")).toBeUndefined();
    expect(passwordProblem("ü".repeat(8))).toBeUndefined();
    expect(passwordProblem("😀".repeat(128))).toBeUndefined();
    expect(passwordProblem("       x")).toBeUndefined();
  });

  it("refuses short and over-long passwords with the limits in the message", () => {
    expect(passwordProblem("seven77")).toBe("Password must be at least 8 characters");
    expect(passwordProblem("😀".repeat(129))).toBe("Password must be at most 128 characters");
  });

  it("refuses common passwords in any letter case", () => {
    for (const common of ["password", "Password1", "QWERTY123", "iloveyou", "12345678", "P@ssw0rd"]) {
      expect(passwordProblem(common)).toBe("This password is too common. Please choose a less predictable one");
    }
  });

  it("refuses the username, the email or its local part", () => {
    const account = { username: "Marguerite", email: "marguerite.d@example.com" };
    for (const password of ["marguerite", "MARGUERITE.D@EXAMPLE.COM", "Marguerite.d"]) {
      expect(passwordProblem(password, account)).toBe("Password must not be your username or email");
    }
    expect(passwordProblem("marguerite's own phrase", account)).toBeUndefined();
  });

  it("bundles a few hundred lower-case entries of at least 8 characters", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(300);
    for (const entry of COMMON_PASSWORDS) {
      expect(entry).toBe(entry.toLowerCase());
      expect([...entry].length).toBeGreaterThanOrEqual(8);
    }
  });
});
