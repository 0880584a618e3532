import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { CATALOGUE_MESSAGES, PICTURE_MAX_BYTES } from "../../../contract/admin-catalogue";
import { PICTURE_WIDTHS, uploadedPictureAddress, uploadedPictureFile } from "../../../contract/pictures";
import { newId } from "../../db/ids";
import { AppError, badRequest } from "../../errors";

/*
 * Product pictures uploaded in the back office (ADR 024). The bytes must start as a PNG, JPEG, WebP or GIF
 * does (the name and the declared type are not trusted), stay under the size limit, and decode; what is
 * stored is never the upload itself but WebP re-encoded at phone and desktop widths, without metadata,
 * under DATA_DIR/uploads/products with a new random name. Names never repeat, so the files are served
 * as immutable; old files are kept, because orders keep the picture address they were bought with.
 */

const MAX_PIXELS = 6_000 * 6_000;

type PictureKind = "png" | "jpeg" | "webp" | "gif";

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** The picture format the first bytes announce, or null. */
export function pictureKindOf(bytes: Uint8Array): PictureKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "gif";
  return null;
}

export const picturesDir = (dataDir: string) => path.join(dataDir, "uploads", "products");

const refuse = (message: string) => badRequest(message, { picture: [message] });

/**
 * Checks a picture and encodes it as WebP at each width, cropped to 16:9: the bytes of each width, widest
 * last. The demo's artwork goes through here too (ADR 043), so it looks exactly like an upload.
 */
export async function encodeProductPicture(bytes: Uint8Array): Promise<Buffer[]> {
  if (bytes.length === 0) throw refuse(CATALOGUE_MESSAGES.pictureFile);
  if (bytes.length > PICTURE_MAX_BYTES) throw refuse(CATALOGUE_MESSAGES.pictureTooLarge);
  if (!pictureKindOf(bytes)) throw refuse(CATALOGUE_MESSAGES.pictureFile);

  try {
    const source = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: "error" });
    const { width, height } = await source.metadata();
    if (!width || !height) throw refuse(CATALOGUE_MESSAGES.pictureUnreadable);
    return await Promise.all(
      PICTURE_WIDTHS.map((target) =>
        source
          .clone()
          .rotate()
          .resize({ width: target, height: Math.round((target * 9) / 16), fit: "cover", withoutEnlargement: true })
          .webp({ quality: 78 })
          .toBuffer(),
      ),
    );
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw refuse(CATALOGUE_MESSAGES.pictureTooManyPixels);
    }
    if (error instanceof AppError) throw error;
    throw refuse(CATALOGUE_MESSAGES.pictureUnreadable);
  }
}

/**
 * Checks an upload and stores it as WebP at each width; answers the address of the widest file (the
 * shop derives the narrower one from it). Nothing is written unless every width was encoded.
 */
export async function storeProductPicture(dataDir: string, bytes: Uint8Array): Promise<string> {
  const encoded = await encodeProductPicture(bytes);
  const directory = picturesDir(dataDir);
  const staging = path.join(dataDir, "uploads", "incoming");
  await Promise.all([mkdir(directory, { recursive: true }), mkdir(staging, { recursive: true })]);
  const name = newId();
  // Written beside the served folder and moved in whole, so a half-written file is never served.
  await Promise.all(
    PICTURE_WIDTHS.map(async (width, index) => {
      const file = uploadedPictureFile(name, width);
      await writeFile(path.join(staging, file), encoded[index]);
      await rename(path.join(staging, file), path.join(directory, file));
    }),
  );
  return uploadedPictureAddress(name);
}
