import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";

/*
 * The goods at rest (ADR 056): every credential a store sells is stored AES-256-GCM encrypted under CREDENTIALS_KEY,
 * which lives outside the database, with the id of the key beside it so keys can rotate. Two keyed hashes (HMAC-SHA256)
 * stand in for the plain values where the store compares them: the username alone (staff's exact search) and the
 * account (username in any letter case, password as it is: the duplicate refusal and the seats of one account).
 * Nothing here logs, and no error carries a key or a value.
 */

/** One CREDENTIALS_KEY entry: 32 bytes, in standard or URL-safe base64. */
export const CREDENTIALS_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type CredentialKey = {
  /** Short and public: which key a value was sealed under (derived from the key, so it needs no configuring). */
  id: string;
  encryption: Buffer;
  lookup: Buffer;
};

export type PlainCredential = { username: string; password: string };

/** What the store writes for a credential: the ciphertext, its key and the two keyed hashes. */
export type SealedCredential = {
  secret: string;
  keyId: string;
  usernameLookup: string;
  accountLookup: string;
};

export class CredentialKeyError extends Error {}

/** The key material of one base64 entry, or null when it is not 32 bytes of base64. */
export function decodeCredentialKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === CREDENTIALS_KEY_BYTES ? bytes : null;
}

/** Separate keys for encrypting and for hashing, derived from the one secret (HKDF-SHA256). */
export function deriveCredentialKey(material: Buffer): CredentialKey {
  const derive = (purpose: string) => Buffer.from(hkdfSync("sha256", material, Buffer.alloc(0), purpose, 32));
  return {
    id: createHash("sha256").update(derive("store credentials key id")).digest("hex").slice(0, 12),
    encryption: derive("store credentials encryption"),
    lookup: derive("store credentials lookup"),
  };
}

/** 128 bits of the HMAC: ample for equality among millions of rows, and half the bytes to store and index. */
const LOOKUP_BYTES = 16;
const lookupOf = (key: CredentialKey, purpose: string, value: string) =>
  createHmac("sha256", key.lookup)
    .update(purpose)
    .update("\u0000")
    .update(value)
    .digest()
    .subarray(0, LOOKUP_BYTES)
    .toString("base64url");

/** Nonces drawn from the system's generator 256 at a time: fewer calls into it on an import of many lines. */
let noncePool = Buffer.alloc(0);
function freshNonce(): Buffer {
  if (noncePool.length < NONCE_BYTES) noncePool = randomBytes(NONCE_BYTES * 256);
  const nonce = noncePool.subarray(0, NONCE_BYTES);
  noncePool = noncePool.subarray(NONCE_BYTES);
  return nonce;
}

/**
 * The keys of this process: the first seals, every one opens (the others are the old ones of a rotation,
 * `CREDENTIALS_KEY=new,old`).
 */
export class CredentialVault {
  readonly current: CredentialKey;
  private readonly byId: Map<string, CredentialKey>;

  constructor(readonly keys: CredentialKey[]) {
    if (keys.length === 0) throw new CredentialKeyError("No credentials key is configured");
    this.current = keys[0];
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** Encrypts one credential under the current key with a fresh nonce; username and password travel together. */
  seal(credential: PlainCredential, key: CredentialKey = this.current): SealedCredential {
    return {
      ...this.encrypt(credential, key),
      usernameLookup: this.usernameLookup(credential.username, key),
      accountLookup: this.accountLookup(credential, key),
    };
  }

  /** The ciphertext alone: the seats of one account share their hashes, each has its own nonce. */
  encrypt(credential: PlainCredential, key: CredentialKey = this.current): { secret: string; keyId: string } {
    const nonce = freshNonce();
    const cipher = createCipheriv("aes-256-gcm", key.encryption, nonce);
    // PostgreSQL text holds no NUL, so it cannot occur in either value and separates them unambiguously.
    const body = Buffer.concat([
      cipher.update(`${credential.username}\u0000${credential.password}`, "utf8"),
      cipher.final(),
    ]);
    return {
      secret: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64"),
      keyId: key.id,
    };
  }

  /** The credential a sealed value holds; a value under a key this process does not have, or altered, throws. */
  open(secret: string, keyId: string): PlainCredential {
    const key = this.byId.get(keyId);
    if (!key) {
      throw new CredentialKeyError(
        `A credential is sealed under key ${keyId}, which CREDENTIALS_KEY does not hold (ADR 056: rotation)`,
      );
    }
    const bytes = Buffer.from(secret, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key.encryption, bytes.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let text: string;
    try {
      text = Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new CredentialKeyError(`A credential sealed under key ${keyId} does not open: it was altered`);
    }
    const split = text.indexOf("\u0000");
    return { username: text.slice(0, split), password: text.slice(split + 1) };
  }

  /** Staff find an account by its username, exactly, in any letter case. */
  usernameLookup(username: string, key: CredentialKey = this.current): string {
    return lookupOf(key, "username", username.trim().toLowerCase());
  }

  /** One account: the username in any letter case (trimmed), the password exactly. */
  accountLookup(credential: PlainCredential, key: CredentialKey = this.current): string {
    return lookupOf(key, "account", `${credential.username.trim().toLowerCase()}\u0000${credential.password}`);
  }

  /** A credential's account hash under every key: rows not yet rotated still carry an old key's. */
  accountLookups(credential: PlainCredential): string[] {
    return this.keys.map((key) => this.accountLookup(credential, key));
  }

  usernameLookups(username: string): string[] {
    return this.keys.map((key) => this.usernameLookup(username, key));
  }
}

/** A vault of CREDENTIALS_KEY's entries (comma-separated, newest first); null when one of them is malformed. */
export function vaultOfKeys(materials: Buffer[]): CredentialVault {
  return new CredentialVault(materials.map(deriveCredentialKey));
}

let installed: CredentialVault | undefined;
let installedFrom: string | undefined;

/**
 * Makes these keys the process's (the server and each CLI do it once at start, from the configuration). Services
 * reach the vault through credentialVault() rather than through every signature: the goods are read in many places.
 */
export function installCredentialKeys(materials: Buffer[]): CredentialVault {
  const fingerprint = materials.map((material) => material.toString("base64")).join(",");
  if (!installed || installedFrom !== fingerprint) {
    installed = vaultOfKeys(materials);
    installedFrom = fingerprint;
  }
  return installed;
}

export function credentialVault(): CredentialVault {
  if (!installed) throw new CredentialKeyError("The credentials key is not loaded: the store starts with it (ADR 056)");
  return installed;
}
