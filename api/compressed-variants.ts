import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

/*
 * A cached answer's bytes in each encoding a client asks for, each made once, on the first request that asks
 * for it, and kept as long as the snapshot they belong to: a cached /shop or /v1/product/read then costs
 * no compression at all after its first answer (issue 40). Levels and figures: ADR 058.
 */

export type ContentCoding = "br" | "gzip" | "identity";

/** Brotli quality and gzip level of a body compressed once and served many times (ADR 058). */
export const STORED_BROTLI_QUALITY = 5;
export const STORED_GZIP_LEVEL = 6;

export type Compressor = (coding: "br" | "gzip", identity: Buffer) => Buffer;

/** Brotli quality and gzip level of a body compressed for one answer only: a rendered page (ADR 058). */
export const DYNAMIC_BROTLI_QUALITY = 1;
export const DYNAMIC_GZIP_LEVEL = 3;

const compressAt =
  (brotliQuality: number, gzipLevel: number): Compressor =>
  (coding, identity) =>
    coding === "br"
      ? brotliCompressSync(identity, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
        })
      : gzipSync(identity, { level: gzipLevel });

/** The default: the stored levels above. */
export const compressStored: Compressor = compressAt(STORED_BROTLI_QUALITY, STORED_GZIP_LEVEL);
/** For bytes sent once (a snapshot cache turned off): the dynamic levels. */
export const compressOnce: Compressor = compressAt(DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL);

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else the bytes as they are. Every
 * browser offers both (Chromium also zstd and deflate, which are not made here: brotli is always beside them).
 */
export function preferredCoding(acceptEncoding: string | null | undefined): ContentCoding {
  if (typeof acceptEncoding !== "string") return "identity";
  // A q=0 refusal is rare enough from real clients to read as "not offered" only when written out.
  const offers = (name: string) => new RegExp(`(^|[,\\s])${name}(?!\\s*;\\s*q=0(\\.0*)?\\b)`, "i").test(acceptEncoding);
  if (offers("br")) return "br";
  if (offers("gzip")) return "gzip";
  return "identity";
}

const etagSuffix: Record<ContentCoding, string> = { identity: "", br: "-br", gzip: "-gz" };

export class CompressedVariants {
  private readonly made = new Map<ContentCoding, Buffer>();
  /** Names these bytes: one strong ETag per encoding (RFC 9110: each representation has its own). */
  private tag: string | undefined;

  constructor(
    readonly identity: Buffer,
    private readonly compress: Compressor = compressStored,
  ) {
    this.made.set("identity", identity);
  }

  /** The body in `coding`, compressed on the first call for it only. */
  bytes(coding: ContentCoding): Buffer {
    let body = this.made.get(coding);
    if (!body) {
      body = this.compress(coding as "br" | "gzip", this.identity);
      this.made.set(coding, body);
    }
    return body;
  }

  etag(coding: ContentCoding): string {
    // Hashed on first use, once per snapshot like the compressed bytes.
    this.tag ??= createHash("sha1").update(this.identity).digest("base64url").slice(0, 22);
    return `"${this.tag}${etagSuffix[coding]}"`;
  }

  /** Whether an If-None-Match header names this representation, so a 304 may answer. */
  matches(ifNoneMatch: string | null | undefined, coding: ContentCoding): boolean {
    if (!ifNoneMatch) return false;
    const etag = this.etag(coding);
    return ifNoneMatch
      .split(",")
      .map((candidate) => candidate.trim().replace(/^W\//, ""))
      .some((candidate) => candidate === etag || candidate === "*");
  }
}

/** The headers of a cached body sent in `coding` (Content-Length and Content-Type are the caller's). */
export function variantHeaders(variants: CompressedVariants, coding: ContentCoding): Record<string, string> {
  return {
    Vary: "Accept-Encoding",
    ETag: variants.etag(coding),
    ...(coding === "identity" ? {} : { "Content-Encoding": coding }),
  };
}
