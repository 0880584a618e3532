/*
 * Where uploaded product pictures live (ADR 024). Kept apart from the catalogue's form rules so the
 * shop's picture component can read it without bringing zod to the browser.
 */

/** The widths a picture is stored at: a phone's card and a desktop's product page at twice the pixels. */
export const PICTURE_WIDTHS = [320, 640] as const;
/** An uploaded picture's address, as stored on the product: its widest file. */
export const UPLOADED_PICTURE = /^\/uploads\/products\/([A-Za-z0-9_-]{22})-640\.webp$/;

/** The srcset of an uploaded picture (every stored width), or undefined for a picture kept elsewhere. */
export function uploadedPictureSrcSet(src: string): string | undefined {
  const name = UPLOADED_PICTURE.exec(src)?.[1];
  return name
    ? PICTURE_WIDTHS.map((width) => `/uploads/products/${name}-${width}.webp ${width}w`).join(", ")
    : undefined;
}
