/**
 * `npm run demo:pictures`: encodes each demo product's artwork (api/db/demo-art) as an uploaded picture is
 * encoded, into api/db/demo-art/webp, and removes files no product names any more (ADR 043). Run it after
 * changing the artwork and commit the result; tests/api/demo-pictures.test.ts fails until then.
 */
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { PICTURE_WIDTHS, uploadedPictureFile } from "../contract/pictures";
import { demoPictureSvg } from "../api/db/demo-art/tile";
import { demoProducts } from "../api/db/demo-data";
import { demoPictureName, demoPicturesDir } from "../api/db/demo-art/pictures";
import { encodeProductPicture } from "../api/services/catalogue/pictures";

const wanted = new Set<string>();
let bytes = 0;
for (const product of demoProducts) {
  const name = demoPictureName(product);
  // Rendered at the widest stored width: the SVG's own size.
  const png = await sharp(Buffer.from(demoPictureSvg(product)))
    .png()
    .toBuffer();
  const encoded = await encodeProductPicture(png);
  await Promise.all(
    PICTURE_WIDTHS.map((width, index) => {
      const file = uploadedPictureFile(name, width);
      wanted.add(file);
      bytes += encoded[index].length;
      return writeFile(path.join(demoPicturesDir, file), encoded[index]);
    }),
  );
}
const stale = (await readdir(demoPicturesDir)).filter((file) => !wanted.has(file));
await Promise.all(stale.map((file) => rm(path.join(demoPicturesDir, file))));
console.log(
  `${wanted.size} files for ${demoProducts.length} products (${Math.round(bytes / 1024)} KiB) in ${path.relative(process.cwd(), demoPicturesDir)}; ${stale.length} stale removed`,
);
