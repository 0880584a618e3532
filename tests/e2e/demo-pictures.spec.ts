import { expect, test } from "@playwright/test";
import { onlyInPairedProject } from "../support/e2e-projects";

/*
 * The demo's pictures (ADR 043) as a shopper gets them, with JS on and off: each card on /shop's first screen
 * shows its product's own picture, a WebP the browser picked from the srcset for its screen: the 640 px file
 * for a phone's sharp screen, the 320 px one for a desktop card at one pixel per pixel.
 */

for (const { name, viewport, deviceScaleFactor, width } of [
  { name: "phone", viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, width: 640 },
  { name: "desktop", viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, width: 320 },
]) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport, deviceScaleFactor });
    onlyInPairedProject(name as "phone" | "desktop");

    test("the first screen's products show their own WebP pictures at the width the screen needs", async ({ page }) => {
      await page.goto("/shop");
      const pictures = page.locator(".product-card").locator('img[loading="eager"]');
      await expect(pictures).not.toHaveCount(0);
      await expect
        .poll(() => pictures.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)))
        .toBe(true);
      const shown = await pictures.evaluateAll((images) =>
        (images as HTMLImageElement[]).map((image) => ({ src: image.currentSrc, decoded: image.naturalWidth > 0 })),
      );
      for (const picture of shown) {
        expect(picture.src).toMatch(new RegExp(`/uploads/products/[A-Za-z0-9_-]{22}-${width}\\.webp$`));
        expect(picture.decoded).toBe(true);
      }
      expect(new Set(shown.map((picture) => picture.src)).size).toBe(shown.length);
    });
  });
}
