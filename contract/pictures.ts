/*
 * Where uploaded product pictures live (ADR 024). Kept apart from the catalogue's form rules so the
 * shop's picture component can read it without bringing zod to the browser.
 */

/** The widths a picture is stored at: a phone's card and a desktop's product page at twice the pixels. */
export const PICTURE_WIDTHS = [320, 640] as const;
/** An uploaded picture's address, as stored on the product: its widest file. */
export const UPLOADED_PICTURE = /^\/uploads\/products\/([A-Za-z0-9_-]{22})-640\.webp$/;

/** The file of an uploaded picture at one of its widths. */
export const uploadedPictureFile = (name: string, width: number) => `${name}-${width}.webp`;

/** The address a product stores for an uploaded picture: its widest file. */
export const uploadedPictureAddress = (name: string) =>
  `/uploads/products/${uploadedPictureFile(name, PICTURE_WIDTHS[PICTURE_WIDTHS.length - 1])}`;

/**
 * The srcset of an uploaded picture, or undefined for a picture kept elsewhere: every stored width, or, `byDensity`,
 * the 640 px file for a 2x screen (for a picture never shown wider than 320 CSS px, whose src is the 320 px file:
 * shorter, with no sizes list, for a page that shows many, the shop's cards).
 */
export function uploadedPictureSrcSet(src: string, byDensity = false): string | undefined {
  const name = UPLOADED_PICTURE.exec(src)?.[1];
  if (!name) return undefined;
  const file = (width: number) => `/uploads/products/${uploadedPictureFile(name, width)}`;
  return byDensity ? `${file(640)} 2x` : PICTURE_WIDTHS.map((width) => `${file(width)} ${width}w`).join(", ");
}
