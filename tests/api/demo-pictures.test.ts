import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoProducts } from "../../api/db/demo-data";
import { demoPictureName, demoPicturesDir } from "../../api/db/demo-art/pictures";
import { PICTURE_WIDTHS, UPLOADED_PICTURE, uploadedPictureFile } from "../../contract/pictures";
import { ApiServerProcess, freePort } from "../support/server-process";

/*
 * The demo's products have pictures a shopper would take for a real catalogue (ADR 043): each its own artwork,
 * encoded like an upload and served like one, at phone and desktop widths, small enough for the page budgets.
 */

/** Far above what the flat artwork needs (3 to 8 KiB), far below what would weigh on a phone's first screen. */
const MAX_PICTURE_BYTES = 30 * 1024;

describe("the demo's picture files", () => {
  it("are exactly the current artwork of every product at every width: run `npm run demo:pictures` when this fails", () => {
    const expected = demoProducts.flatMap((product) =>
      PICTURE_WIDTHS.map((width) => uploadedPictureFile(demoPictureName(product), width)),
    );
    expect(readdirSync(demoPicturesDir).sort()).toEqual([...expected].sort());
  });
});

describe("the seeded shop's pictures over HTTP", () => {
  let server: ApiServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "store-demo-pictures-"));
    server = new ApiServerProcess(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "true",
      SESSION_SECRET: "demo-pictures-test-secret-long-enough-0123456",
      LOG_LEVEL: "error",
    });
    // Migrations and the demo seed come first: slow on a busy machine.
    await server.start(90_000);
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives every product its own picture, served as WebP at each width and cached as immutable", async () => {
    const answer = (await (await fetch(`${server.baseUrl}/v1/product/read`)).json()) as {
      payload: { title: string; picture: string }[];
    };
    const list = answer.payload;
    expect(list).toHaveLength(demoProducts.length);

    const desktopDigests = new Set<string>();
    for (const product of list) {
      const name = UPLOADED_PICTURE.exec(product.picture)?.[1];
      expect(name, product.title).toBeDefined();
      for (const width of PICTURE_WIDTHS) {
        const response = await fetch(`${server.baseUrl}/uploads/products/${uploadedPictureFile(name!, width)}`);
        expect(response.status, `${product.title} at ${width}`).toBe(200);
        expect(response.headers.get("content-type")).toBe("image/webp");
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.length, `${product.title} at ${width}`).toBeLessThan(MAX_PICTURE_BYTES);
        const { format, width: actualWidth, height } = await sharp(bytes).metadata();
        expect({ format, width: actualWidth, height }).toEqual({ format: "webp", width, height: (width * 9) / 16 });
        if (width === PICTURE_WIDTHS.at(-1)) desktopDigests.add(createHash("sha256").update(bytes).digest("hex"));
      }
    }
    // No two products share a picture: not the same address, not the same bytes under another name.
    expect(new Set(list.map((product) => product.picture)).size).toBe(list.length);
    expect(desktopDigests.size).toBe(list.length);
  });
});
