import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { uploadedPictureAddress } from "../../../contract/pictures";
import type { DemoProduct } from "../demo-data";
import { demoPictureSvg } from "./tile";

/*
 * The demo's product pictures (ADR 043): drawn as SVG here (tile.ts, motifs.ts), encoded through the uploads'
 * pipeline by `npm run demo:pictures` and committed in webp/, so every instance serves them as /uploads/products/*
 * with no shared folder, and neither a start nor a seed encodes anything.
 */

/** Where the encoded pictures are kept, served beside DATA_DIR/uploads/products. */
export const demoPicturesDir = fileURLToPath(new URL("./webp", import.meta.url));

const names = new Map<string, string>();

/** The picture's file name: a hash of its artwork, so a changed drawing gets a new address (served as immutable). */
export function demoPictureName(product: DemoProduct): string {
  let name = names.get(product.slug);
  if (!name) {
    name = createHash("sha256").update(demoPictureSvg(product)).digest("base64url").slice(0, 22);
    names.set(product.slug, name);
  }
  return name;
}

/** The address a demo product stores, shaped like an upload's. */
export const demoPictureAddress = (product: DemoProduct) => uploadedPictureAddress(demoPictureName(product));
