import { describe, expect, it } from "vitest";
import { CredentialKeyError, decodeCredentialKey, vaultOfKeys } from "../../api/credential-vault";

/* The goods' cipher (issue 39, ADR 056): AES-256-GCM with a fresh nonce per value, key ids, keyed hashes. */

const keyA = Buffer.alloc(32, 0x11);
const keyB = Buffer.alloc(32, 0x22);
const credential = { username: "Ünïcode.User@Mail.Example", password: "pa:ss wörd:" };

describe("the credential vault", () => {
  it("seals each value with its own nonce, opens it to the same credential, and holds neither in clear", () => {
    const vault = vaultOfKeys([keyA]);
    const first = vault.seal(credential);
    const second = vault.seal(credential);
    expect(first.secret).not.toBe(second.secret);
    expect(first.keyId).toBe(vault.current.id);
    for (const sealed of [first, second]) {
      expect(vault.open(sealed.secret, sealed.keyId)).toEqual(credential);
      const bytes = Buffer.from(sealed.secret, "base64");
      expect(bytes.includes(Buffer.from("Mail.Example"))).toBe(false);
      expect(bytes.includes(Buffer.from("pa:ss"))).toBe(false);
    }
  });

  it("refuses an altered value or an unknown key, naming the key's id and never a key or a value", () => {
    const vault = vaultOfKeys([keyA]);
    const sealed = vault.seal(credential);
    const bytes = Buffer.from(sealed.secret, "base64");
    bytes[20] ^= 1;
    expect(() => vault.open(bytes.toString("base64"), sealed.keyId)).toThrow(CredentialKeyError);
    const other = vaultOfKeys([keyB]);
    const error = (() => {
      try {
        other.open(sealed.secret, sealed.keyId);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(CredentialKeyError);
    expect(error!.message).toContain(sealed.keyId);
    expect(error!.message).not.toContain(keyA.toString("base64"));
    expect(error!.message).not.toContain(credential.password);
  });

  it("opens values of an older key during a rotation and seals new ones under the first", () => {
    const old = vaultOfKeys([keyA]).seal(credential);
    const rotating = vaultOfKeys([keyB, keyA]);
    expect(rotating.open(old.secret, old.keyId)).toEqual(credential);
    expect(rotating.seal(credential).keyId).toBe(vaultOfKeys([keyB]).current.id);
    expect(rotating.current.id).not.toBe(old.keyId);
  });

  it("hashes an account with the username in any case and trimmed, the password exactly, under each key", () => {
    const vault = vaultOfKeys([keyA]);
    const account = vault.accountLookup(credential);
    expect(vault.accountLookup({ ...credential, username: ` ${credential.username.toUpperCase()} ` })).toBe(account);
    expect(vault.accountLookup({ ...credential, password: credential.password.toUpperCase() })).not.toBe(account);
    expect(vault.usernameLookup("  ünïcode.user@mail.example")).toBe(vault.usernameLookup(credential.username));
    expect(vaultOfKeys([keyB]).accountLookup(credential)).not.toBe(account);
    expect(vaultOfKeys([keyB, keyA]).accountLookups(credential)).toContain(account);
  });

  it("reads a key of 32 bytes in standard or URL-safe base64, and nothing else", () => {
    const bytes = Buffer.alloc(32, 0xfb);
    expect(decodeCredentialKey(bytes.toString("base64"))).toEqual(bytes);
    expect(decodeCredentialKey(bytes.toString("base64url"))).toEqual(bytes);
    expect(decodeCredentialKey(Buffer.alloc(31).toString("base64"))).toBeNull();
    expect(decodeCredentialKey("not a key at all, not base64!")).toBeNull();
  });
});
