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

/** The srcset of an uploaded picture (every stored width), or undefined for a picture kept elsewhere. */
export function uploadedPictureSrcSet(src: string): string | undefined {
  const name = UPLOADED_PICTURE.exec(src)?.[1];
  return name
    ? PICTURE_WIDTHS.map((width) => `/uploads/products/${uploadedPictureFile(name, width)} ${width}w`).join(", ")
    : undefined;
}

/**
 * An uploaded picture shown at most 320 CSS px wide: its 320 px file, and the 640 px one for a 2x screen. Shorter
 * than a srcset of widths with its sizes list, for a page that shows many (the shop's cards).
 */
export function uploadedPictureDensities(src: string): { src: string; srcSet: string } | undefined {
  const name = UPLOADED_PICTURE.exec(src)?.[1];
  if (!name) return undefined;
  const [narrow, wide] = PICTURE_WIDTHS;
  return {
    src: `/uploads/products/${uploadedPictureFile(name, narrow)}`,
    srcSet: `/uploads/products/${uploadedPictureFile(name, wide)} 2x`,
  };
}
