import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_MESSAGES, PICTURE_MAX_BYTES } from "../../contract/admin-catalogue";
import { auditLog, categories, products, stockCredentials } from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { ADMIN_CATALOGUE_MESSAGES } from "../../api/services/catalogue/admin";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

/*
 * The back office's catalogue (ADR 024): roles, categories, products, options, warranty durations and
 * pictures; what the shop shows after each change (with a catalogue cache of a minute, so only the
 * invalidation can explain a fresh answer); the audit of every change. PGlite and PostgreSQL.
 */

let client: ShopTestApi;
let dataDir: string;
let manager: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "store-catalogue-"));
  client = await createShopTestApi({ DATA_DIR: dataDir, CATALOGUE_CACHE_MS: "60000", RATE_LIMIT_SCALE: "100" });
  manager = await createCustomer(client.db, { role: "manager" });
});
afterAll(async () => {
  await client.close();
  await rm(dataDir, { recursive: true, force: true });
});

const as = (token = manager.token) => ({ token });
const admin = (suffix: string) => `/v1/admin/catalogue${suffix}`;

async function created(answer: { status: number; body: { message: string; payload?: any } }) {
  expect(answer.status, answer.body.message).toBe(201);
  return answer.body.payload;
}

const productFields = (overrides: Record<string, unknown> = {}) => ({
  title: `Tunes ${newId().slice(0, 6)}`,
  label: "MUSIC",
  description: "Ad-free listening",
  deliveryNotes: "Sign in with the e-mail given.",
  minQuantity: 1,
  maxQuantity: 5,
  fulfilMode: "auto",
  active: true,
  categoryIds: [],
  ...overrides,
});

async function newProduct(overrides: Record<string, unknown> = {}) {
  return created(await client.post(admin("/products"), productFields(overrides), as()));
}

async function newOption(productId: string, overrides: Record<string, unknown> = {}) {
  return created(
    await client.post(admin(`/products/${productId}/options`), { title: "Family", seats: 1, ...overrides }, as()),
  );
}

const auditOf = (objectId: string) =>
  client.db.select().from(auditLog).where(eq(auditLog.objectId, objectId)).orderBy(auditLog.createdAt);
const shopProducts = async () => (await client.get("/v1/product/read")).body.payload as { _id: string }[];
const productCount = async () => Number((await client.db.select({ n: count() }).from(products))[0].n);

describe("who reaches the catalogue", () => {
  it("refuses customers and support with 403 and the signed-out with 401, on reads and changes", async () => {
    const customer = await createCustomer(client.db);
    const support = await createCustomer(client.db, { role: "support" });
    for (const token of [customer.token, support.token]) {
      expect((await client.get(admin("/products"), as(token))).status).toBe(403);
      expect((await client.get(admin("/categories"), as(token))).status).toBe(403);
      expect((await client.post(admin("/categories"), { name: "Sneaky" }, as(token))).status).toBe(403);
      expect((await client.post(admin("/products"), productFields(), as(token))).status).toBe(403);
    }
    expect((await client.get(admin("/products"))).status).toBe(401);
    expect(await client.db.select().from(categories).where(eq(categories.name, "Sneaky"))).toEqual([]);
    const owner = await createCustomer(client.db, { role: "owner" });
    expect((await client.get(admin("/categories"), as(owner.token))).status).toBe(200);
  });
});

describe("building a product the shop sells", () => {
  it("creates a category, a product in it, an option and durations: the shop shows it at once", async () => {
    await shopProducts(); // fills the shop's one-minute cache before the change
    const category = await created(await client.post(admin("/categories"), { name: "Music", position: 3 }, as()));
    expect(category).toEqual({ _id: expect.any(String), name: "Music", position: 3, products: 0 });

    const product = await newProduct({ categoryIds: [category._id] });
    expect(product).toMatchObject({ label: "MUSIC", maxQuantity: 5, categoryIds: [category._id], options: [] });
    const option = await newOption(product._id);
    await created(
      await client.post(admin(`/options/${option._id}/durations`), { title: "1 Month", days: 30, price: 4.99 }, as()),
    );
    await created(
      await client.post(admin(`/options/${option._id}/durations`), { title: "1 Year", days: 365, price: 39 }, as()),
    );

    const listed = (await shopProducts()).find((row) => row._id === product._id);
    expect(listed).toMatchObject({ title: product.title, minPrice: 4.99, categoryIds: [category._id] });
    const options = (await client.get(`/v1/product/option/read/${product._id}`)).body.payload;
    expect(options).toEqual([
      expect.objectContaining({
        _id: option._id,
        subOptions: [
          expect.objectContaining({ duration: 30, price: 4.99 }),
          expect.objectContaining({ duration: 365, price: 39 }),
        ],
      }),
    ]);
    const read = (await client.get(admin(`/products/${product._id}`), as())).body.payload;
    expect(read.options[0]).toMatchObject({ title: "Family", freeSeats: 0, stockRows: 0, durations: [{}, {}] });
    const categoriesNow = (await client.get(admin("/categories"), as())).body.payload;
    expect(categoriesNow.find((row: { _id: string }) => row._id === category._id).products).toBe(1);
  });

  it("hides a product from the shop and shows it again; an edit saves every field, audited before and after", async () => {
    const product = await newProduct();
    const option = await newOption(product._id);
    await client.post(admin(`/options/${option._id}/durations`), { title: "1 Month", days: 30, price: 5 }, as());
    expect((await shopProducts()).map((row) => row._id)).toContain(product._id);

    const hidden = await client.put(
      admin(`/products/${product._id}`),
      productFields({ title: "Renamed", active: false, maxQuantity: null, fulfilMode: "manual" }),
      as(),
    );
    expect(hidden.status).toBe(200);
    expect(hidden.body.payload).toMatchObject({
      title: "Renamed",
      active: false,
      maxQuantity: null,
      fulfilMode: "manual",
    });
    expect((await shopProducts()).map((row) => row._id)).not.toContain(product._id);

    await client.put(admin(`/products/${product._id}`), productFields({ title: "Renamed", active: true }), as());
    expect((await shopProducts()).map((row) => row._id)).toContain(product._id);

    const entries = await auditOf(product._id);
    expect(entries.map((entry) => entry.action)).toEqual(["product.create", "product.update", "product.update"]);
    expect(entries[1]).toMatchObject({
      actorUserId: manager.id,
      objectLabel: "Renamed",
      changes: {
        before: expect.objectContaining({ title: product.title, active: true }),
        after: expect.objectContaining({ title: "Renamed", active: false }),
      },
    });
  });

  it("moves a category and deletes it: its products stay", async () => {
    const category = await created(await client.post(admin("/categories"), { name: "Gaming" }, as()));
    const product = await newProduct({ categoryIds: [category._id] });
    const moved = await client.put(admin(`/categories/${category._id}`), { name: "Games", position: 9 }, as());
    expect(moved.body.payload).toEqual({ _id: category._id, name: "Games", position: 9, products: 1 });
    expect((await client.delete(admin(`/categories/${category._id}`), as())).body.message).toBe(
      "Category Games deleted",
    );
    expect((await client.get(admin(`/products/${product._id}`), as())).body.payload.categoryIds).toEqual([]);
    expect((await auditOf(category._id)).map((entry) => entry.action)).toEqual([
      "category.create",
      "category.update",
      "category.delete",
    ]);
  });
});

describe("bad input changes nothing", () => {
  it("answers 400 naming the field for each broken rule", async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: "" }, "title", CATALOGUE_MESSAGES.title],
      [{ minQuantity: 3, maxQuantity: 2 }, "maxQuantity", CATALOGUE_MESSAGES.maxBelowMin],
      [{ minQuantity: 0 }, "minQuantity", CATALOGUE_MESSAGES.quantity],
      [{ fulfilMode: "teleport" }, "fulfilMode", CATALOGUE_MESSAGES.fulfilMode],
      [{ picture: "javascript:alert(1)" }, "picture", CATALOGUE_MESSAGES.pictureUrl],
      [{ picture: "http://plain.example/x.png" }, "picture", CATALOGUE_MESSAGES.pictureUrl],
      [{ picture: "https://elsewhere.example/x.png" }, "picture", CATALOGUE_MESSAGES.pictureUrl],
      [{ picture: "/images/../v1/admin/me" }, "picture", CATALOGUE_MESSAGES.pictureUrl],
      [{ categoryIds: [newId()] }, "categoryIds", ADMIN_CATALOGUE_MESSAGES.unknownCategories],
      [{ position: -1 }, "position", CATALOGUE_MESSAGES.position],
    ];
    for (const [overrides, field, message] of cases) {
      const answer = await client.post(admin("/products"), productFields(overrides), as());
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors?.[field], field).toEqual([message]);
    }
    expect(await productCount()).toBe(before);

    const product = await newProduct();
    const option = await newOption(product._id);
    const durationCases: [Record<string, unknown>, string, string][] = [
      [{ title: "Week", days: 0, price: 1 }, "days", CATALOGUE_MESSAGES.days],
      [{ title: "Week", days: 7, price: 1.005 }, "price", CATALOGUE_MESSAGES.price],
      [{ title: "Week", days: 7, price: -1 }, "price", CATALOGUE_MESSAGES.price],
      [{ title: "", days: 7, price: 1 }, "title", CATALOGUE_MESSAGES.durationTitle],
    ];
    for (const [body, field, message] of durationCases) {
      const answer = await client.post(admin(`/options/${option._id}/durations`), body, as());
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors?.[field], field).toEqual([message]);
    }
    expect((await client.post(admin(`/products/${product._id}/options`), { title: "X", seats: 0 }, as())).status).toBe(
      400,
    );
    const read = (await client.get(admin(`/products/${product._id}`), as())).body.payload;
    expect(read.options).toHaveLength(1);
    expect(read.options[0].durations).toEqual([]);
  });

  it("answers 404 for unknown and malformed ids", async () => {
    for (const id of [newId(), "not-an-id"]) {
      expect((await client.get(admin(`/products/${id}`), as())).status).toBe(404);
      expect((await client.put(admin(`/products/${id}`), productFields(), as())).status).toBe(404);
      expect((await client.put(admin(`/options/${id}`), { title: "X" }, as())).status).toBe(404);
      expect((await client.delete(admin(`/durations/${id}`), as())).status).toBe(404);
      expect((await client.delete(admin(`/categories/${id}`), as())).status).toBe(404);
    }
  });
});

describe("options and durations", () => {
  it("keeps one duration per number of days, also when two saves race", async () => {
    const product = await newProduct();
    const option = await newOption(product._id);
    const durations = admin(`/options/${option._id}/durations`);
    const month = await created(await client.post(durations, { title: "1 Month", days: 30, price: 5 }, as()));
    const again = await client.post(durations, { title: "Thirty days", days: 30, price: 6 }, as());
    expect(again).toMatchObject({ status: 409, body: { errors: { days: [ADMIN_CATALOGUE_MESSAGES.daysTaken] } } });

    const racing = await Promise.all(
      [1, 2, 3].map((index) => client.post(durations, { title: `Week ${index}`, days: 7, price: index }, as())),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);

    const year = await created(await client.post(durations, { title: "1 Year", days: 365, price: 40 }, as()));
    const clash = await client.put(admin(`/durations/${year._id}`), { title: "1 Year", days: 30, price: 40 }, as());
    expect(clash.status).toBe(409);
    const repriced = await client.put(
      admin(`/durations/${month._id}`),
      { title: "1 Month", days: 30, price: 4.5 },
      as(),
    );
    expect(repriced.body.payload).toMatchObject({ days: 30, price: 4.5 });
    expect((await client.delete(admin(`/durations/${year._id}`), as())).status).toBe(200);

    const read = (await client.get(admin(`/products/${product._id}`), as())).body.payload;
    expect(read.options[0].durations.map((row: { days: number; price: number }) => [row.days, row.price])).toEqual([
      [7, expect.any(Number)],
      [30, 4.5],
    ]);
    expect((await auditOf(month._id)).map((entry) => entry.action)).toEqual(["duration.create", "duration.update"]);
    expect((await auditOf(year._id)).map((entry) => entry.action)).toEqual(["duration.create", "duration.delete"]);
  });

  it("changes seats only while the option has no stock, and hides an option from the shop", async () => {
    const product = await newProduct();
    const option = await newOption(product._id, { seats: 1 });
    await client.post(admin(`/options/${option._id}/durations`), { title: "1 Month", days: 30, price: 5 }, as());
    const shared = await client.put(admin(`/options/${option._id}`), { title: "Shared", seats: 4 }, as());
    expect(shared.status).toBe(200);

    await client.db
      .insert(stockCredentials)
      .values({ optionId: option._id, username: "a@x.io", password: "pw", seat: 1 });
    const refused = await client.put(admin(`/options/${option._id}`), { title: "Shared", seats: 2 }, as());
    expect(refused).toMatchObject({ status: 409, body: { errors: { seats: [ADMIN_CATALOGUE_MESSAGES.seatsFixed] } } });
    const read = (await client.get(admin(`/products/${product._id}`), as())).body.payload;
    expect(read.options[0]).toMatchObject({ title: "Shared", seats: 4, freeSeats: 1, stockRows: 1 });

    const off = await client.put(admin(`/options/${option._id}`), { title: "Shared", seats: 4, active: false }, as());
    expect(off.status).toBe(200);
    expect((await client.get(`/v1/product/option/read/${product._id}`)).body.payload).toEqual([]);
    expect((await auditOf(option._id)).map((entry) => entry.action)).toEqual([
      "option.create",
      "option.update",
      "option.update",
    ]);
  });
});

describe("pictures", () => {
  const picture = (width: number, height: number, format: "png" | "jpeg" = "png") => {
    const canvas = sharp({ create: { width, height, channels: 3, background: "#3366cc" } });
    return (format === "png" ? canvas.png() : canvas.jpeg()).toBuffer();
  };
  const upload = (productId: string, bytes: Buffer | string) =>
    client.post(
      admin(`/products/${productId}/picture`),
      { data: typeof bytes === "string" ? bytes : bytes.toString("base64") },
      as(),
    );
  const storedFiles = async () => readdir(path.join(dataDir, "uploads", "products")).catch(() => [] as string[]);

  it("stores an upload as WebP at phone and desktop widths and points the product at it", async () => {
    const product = await newProduct();
    const answer = await upload(product._id, await picture(1600, 900, "jpeg"));
    expect(answer.status, answer.body.message).toBe(200);
    const address: string = answer.body.payload.picture;
    const [, name] = /^\/uploads\/products\/([A-Za-z0-9_-]{22})-640\.webp$/.exec(address) ?? [];
    expect(name).toBeTruthy();
    for (const width of [320, 640]) {
      const file = await readFile(path.join(dataDir, "uploads", "products", `${name}-${width}.webp`));
      expect(file.subarray(8, 12).toString("latin1")).toBe("WEBP");
      expect(await sharp(file).metadata()).toMatchObject({ format: "webp", width, height: (width * 9) / 16 });
    }
    expect((await shopProducts()).find((row) => row._id === product._id)).toMatchObject({ picture: address });
    const [entry] = (await auditOf(product._id)).filter((row) => row.action === "product.picture");
    expect(entry.changes).toEqual({ before: { picture: "" }, after: { picture: address } });
  });

  it("refuses what is not a picture, a broken one, a huge one and one for no product, writing nothing", async () => {
    const product = await newProduct();
    const filesBefore = (await storedFiles()).length;
    const png = await picture(64, 64);
    const refusals: [Buffer | string, string][] = [
      [
        Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
        CATALOGUE_MESSAGES.pictureFile,
      ],
      [Buffer.from("GIF89a but not really a picture at all"), CATALOGUE_MESSAGES.pictureUnreadable],
      [png.subarray(0, 40), CATALOGUE_MESSAGES.pictureUnreadable],
      [Buffer.concat([png, Buffer.alloc(PICTURE_MAX_BYTES)]), CATALOGUE_MESSAGES.pictureTooLarge],
      ["", CATALOGUE_MESSAGES.pictureFile],
      ["%%% not base64 %%%", CATALOGUE_MESSAGES.pictureFile],
    ];
    for (const [bytes, message] of refusals) {
      const answer = await upload(product._id, bytes);
      expect(answer.status, message).toBe(400);
      expect(answer.body.errors?.picture ?? answer.body.errors?.data, message).toEqual([message]);
    }
    expect((await upload(newId(), png)).status).toBe(404);
    expect((await storedFiles()).length).toBe(filesBefore);
    const [row] = await client.db
      .select()
      .from(products)
      .where(and(eq(products.id, product._id)));
    expect(row.picture).toBe("");
  });

  it("refuses a picture of more than 6,000 × 6,000 pixels", async () => {
    const product = await newProduct();
    const wide = await sharp({ create: { width: 12_000, height: 3_200, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(wide.length).toBeLessThan(PICTURE_MAX_BYTES);
    const answer = await upload(product._id, wide);
    expect(answer).toMatchObject({
      status: 400,
      body: { errors: { picture: [CATALOGUE_MESSAGES.pictureTooManyPixels] } },
    });
  });
});
