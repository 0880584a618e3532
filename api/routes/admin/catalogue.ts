import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  CATALOGUE_MESSAGES,
  CATALOGUE_PAGE_SIZE,
  PICTURE_MAX_BYTES,
  categoryInputSchema,
  durationInputSchema,
  optionInputSchema,
  productInputSchema,
} from "../../../contract/admin-catalogue";
import {
  adminCategoriesSchema,
  adminCategorySchema,
  adminProductPageSchema,
  adminProductSchema,
  deletedCategorySchema,
  deletedDurationSchema,
  savedDurationSchema,
  savedOptionSchema,
} from "../../../contract/answers/admin-catalogue";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import type { ApiEnv } from "../../context";
import { createdOnce } from "../../idempotent-answer";
import { badRequest, notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import {
  BAD_INPUT,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  pathParams,
  ONCE_FAILURES,
  idempotencyKeyHeader,
} from "../../openapi";
import {
  ADMIN_CATALOGUE_MESSAGES,
  createCategory,
  createDuration,
  createOption,
  createProduct,
  deleteCategory,
  deleteDuration,
  listCategories,
  listProducts,
  readProduct,
  setProductPicture,
  updateCategory,
  updateDuration,
  updateOption,
  updateProduct,
} from "../../services/admin-catalogue";
import { storeProductPicture } from "../../services/product-pictures";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/catalogue (ADR 024): categories, products, options and warranty durations, for managers and
 * owners. Every change is audited and forgets this process's catalogue snapshots, so the shop shows it at
 * once here and within CATALOGUE_CACHE_MS on every other instance.
 */

const ADMIN = ["Back office"];
const FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED, ...STAFF_ONLY };

/** A malformed id names no row: it answers 404 like an unknown one. */
function idOf(id: string, message: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(message);
  return id;
}

/** After a change: this process's shop reads the catalogue again. */
function changed(c: Context<ApiEnv>) {
  c.get("snapshots").clear();
}

const pictureBodySchema = z.object({
  data: z
    .string({ required_error: CATALOGUE_MESSAGES.pictureFile, invalid_type_error: CATALOGUE_MESSAGES.pictureFile })
    .max(Math.ceil(PICTURE_MAX_BYTES / 3) * 4 + 4, CATALOGUE_MESSAGES.pictureTooLarge)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, CATALOGUE_MESSAGES.pictureFile)
    .openapi({
      description: `the picture's bytes in base64; PNG, JPEG, WebP or GIF, ${PICTURE_MAX_BYTES} bytes at most`,
    }),
});

/*
 * Typed as a plain router: the chain's inferred schema type is never read (the pages read the answers' types
 * from contract/answers), and carrying it into the admin router's type ran the type checker out of memory.
 */
export const catalogueRoutes: ReturnType<typeof apiRouter> = apiRouter()
  // ---------------------------------------------------------------- categories
  .openapi(
    createRoute({
      method: "get",
      path: "/catalogue/categories",
      tags: ADMIN,
      summary: "Every category in shop order, with how many products it holds",
      ...staffRoute("catalogue"),
      responses: answers(200, adminCategoriesSchema, "the categories", { ...UNAUTHORIZED, ...STAFF_ONLY }),
    }),
    async (c) => ok(c, await listCategories(c.get("db"))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/catalogue/categories",
      tags: ADMIN,
      summary: "Create a category; audited",
      ...staffRoute("catalogue"),
      request: { headers: idempotencyKeyHeader, body: jsonBody(categoryInputSchema) },
      responses: answers(201, adminCategorySchema, "the new category", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const category = await createCategory(c.get("db"), staffActor(c), input);
        changed(c);
        return { payload: category, message: `Category ${category.name} created` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/catalogue/categories/{categoryId}",
      tags: ADMIN,
      summary: "Rename or move a category; audited",
      ...staffRoute("catalogue"),
      request: { params: pathParams("categoryId"), body: jsonBody(categoryInputSchema) },
      responses: answers(200, adminCategorySchema, "the category", { ...FAILURES, 404: "no category has this id" }),
    }),
    async (c) => {
      const categoryId = idOf(c.req.valid("param").categoryId, ADMIN_CATALOGUE_MESSAGES.categoryNotFound);
      const category = await updateCategory(c.get("db"), staffActor(c), categoryId, c.req.valid("json"));
      changed(c);
      return ok(c, category, `Category ${category.name} saved`);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/catalogue/categories/{categoryId}",
      tags: ADMIN,
      summary: "Delete a category (its products stay); audited",
      ...staffRoute("catalogue"),
      request: { params: pathParams("categoryId") },
      responses: answers(200, deletedCategorySchema, "the deleted category's name", {
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
        404: "no category has this id",
      }),
    }),
    async (c) => {
      const categoryId = idOf(c.req.valid("param").categoryId, ADMIN_CATALOGUE_MESSAGES.categoryNotFound);
      const deleted = await deleteCategory(c.get("db"), staffActor(c), categoryId);
      changed(c);
      return ok(c, deleted, `Category ${deleted.name} deleted`);
    },
  )
  // ---------------------------------------------------------------- products
  .openapi(
    createRoute({
      method: "get",
      path: "/catalogue/products",
      tags: ADMIN,
      summary: `Every product (hidden ones too) in shop order, ${CATALOGUE_PAGE_SIZE} a page`,
      ...staffRoute("catalogue"),
      request: {
        query: z.object({
          page: z.coerce
            .number()
            .int("Page must be a whole number")
            .min(1, "Page starts at 1")
            .max(100_000)
            .default(1)
            .openapi({ param: { name: "page", in: "query" } }),
          search: z
            .string()
            .trim()
            .max(200, "Search is too long")
            .default("")
            .openapi({ param: { name: "search", in: "query" }, description: "part of the title or label" }),
        }),
      },
      responses: answers(200, adminProductPageSchema, "a page", FAILURES),
    }),
    async (c) => ok(c, await listProducts(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/catalogue/products/{productId}",
      tags: ADMIN,
      summary: "A product with every option (hidden ones too), free seats and warranty durations",
      ...staffRoute("catalogue"),
      request: { params: pathParams("productId") },
      responses: answers(200, adminProductSchema, "the product", {
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      return ok(c, await readProduct(c.get("db"), productId));
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/catalogue/products",
      tags: ADMIN,
      summary: "Create a product; audited",
      description:
        "`picture` is the address of one of the store's own pictures (an upload or an /images/ file), or empty; upload a file with …/picture.",
      ...staffRoute("catalogue"),
      request: { headers: idempotencyKeyHeader, body: jsonBody(productInputSchema) },
      responses: answers(201, adminProductSchema, "the new product", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const product = await createProduct(c.get("db"), staffActor(c), input);
        changed(c);
        return { payload: product, message: `Product ${product.title} created` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/catalogue/products/{productId}",
      tags: ADMIN,
      summary: "Save a product (every field); audited",
      ...staffRoute("catalogue"),
      request: { params: pathParams("productId"), body: jsonBody(productInputSchema) },
      responses: answers(200, adminProductSchema, "the product", { ...FAILURES, 404: "no product has this id" }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      const product = await updateProduct(c.get("db"), staffActor(c), productId, c.req.valid("json"));
      changed(c);
      return ok(c, product, `Product ${product.title} saved`);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/catalogue/products/{productId}/picture",
      tags: ADMIN,
      summary: "Upload a product's picture; stored as WebP at phone and desktop widths; audited",
      description:
        "The bytes must be a PNG, JPEG, WebP or GIF (checked by their first bytes and by decoding), " +
        `${PICTURE_MAX_BYTES} bytes at most and 6,000 × 6,000 pixels at most. Served from /uploads/products/ ` +
        "with a year's caching.",
      ...staffRoute("catalogue"),
      request: { params: pathParams("productId"), body: jsonBody(pictureBodySchema) },
      responses: answers(200, adminProductSchema, "the product with its new picture", {
        ...FAILURES,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      // Known before any file is written: an upload for no product leaves nothing behind.
      await readProduct(c.get("db"), productId);
      const bytes = Buffer.from(c.req.valid("json").data, "base64");
      if (bytes.length === 0)
        throw badRequest(CATALOGUE_MESSAGES.pictureFile, { picture: [CATALOGUE_MESSAGES.pictureFile] });
      const picture = await storeProductPicture(c.get("config").dataDir, bytes);
      const product = await setProductPicture(c.get("db"), staffActor(c), productId, picture);
      changed(c);
      return ok(c, product, "Picture saved");
    },
  )
  // ---------------------------------------------------------------- options
  .openapi(
    createRoute({
      method: "post",
      path: "/catalogue/products/{productId}/options",
      tags: ADMIN,
      summary: "Add an option to a product; audited",
      ...staffRoute("catalogue"),
      request: { headers: idempotencyKeyHeader, params: pathParams("productId"), body: jsonBody(optionInputSchema) },
      responses: answers(201, savedOptionSchema, "the new option", {
        ...FAILURES,
        ...ONCE_FAILURES,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const option = await createOption(c.get("db"), staffActor(c), productId, input);
        changed(c);
        return { payload: option, message: `Option ${option.title} added` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/catalogue/options/{optionId}",
      tags: ADMIN,
      summary: "Save an option; audited",
      description:
        "Seats change only while the option has no stock rows (409 otherwise). A new low-stock threshold " +
        "is compared with the free seats at once.",
      ...staffRoute("catalogue"),
      request: { params: pathParams("optionId"), body: jsonBody(optionInputSchema) },
      responses: answers(200, savedOptionSchema, "the option", {
        ...FAILURES,
        404: "no option has this id",
        409: "seats changed while the option has stock (`errors.seats`)",
      }),
    }),
    async (c) => {
      const optionId = idOf(c.req.valid("param").optionId, ADMIN_CATALOGUE_MESSAGES.optionNotFound);
      const option = await updateOption(c.get("db"), staffActor(c), c.get("config"), optionId, c.req.valid("json"));
      changed(c);
      return ok(c, option, `Option ${option.title} saved`);
    },
  )
  // ---------------------------------------------------------------- warranty durations
  .openapi(
    createRoute({
      method: "post",
      path: "/catalogue/options/{optionId}/durations",
      tags: ADMIN,
      summary: "Add a warranty duration with its price to an option; audited",
      ...staffRoute("catalogue"),
      request: { headers: idempotencyKeyHeader, params: pathParams("optionId"), body: jsonBody(durationInputSchema) },
      responses: answers(201, savedDurationSchema, "the new duration", {
        ...FAILURES,
        ...ONCE_FAILURES,
        404: "no option has this id",
        409: "the option already has a duration of these days (`errors.days`), or the same Idempotency-Key is still in progress",
      }),
    }),
    async (c) => {
      const optionId = idOf(c.req.valid("param").optionId, ADMIN_CATALOGUE_MESSAGES.optionNotFound);
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const duration = await createDuration(c.get("db"), staffActor(c), optionId, input);
        changed(c);
        return { payload: duration, message: `Warranty ${duration.title} added` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/catalogue/durations/{durationId}",
      tags: ADMIN,
      summary: "Save a warranty duration; audited",
      ...staffRoute("catalogue"),
      request: { params: pathParams("durationId"), body: jsonBody(durationInputSchema) },
      responses: answers(200, savedDurationSchema, "the duration", {
        ...FAILURES,
        404: "no duration has this id",
        409: "the option already has a duration of these days (`errors.days`)",
      }),
    }),
    async (c) => {
      const durationId = idOf(c.req.valid("param").durationId, ADMIN_CATALOGUE_MESSAGES.durationNotFound);
      const duration = await updateDuration(c.get("db"), staffActor(c), durationId, c.req.valid("json"));
      changed(c);
      return ok(c, duration, `Warranty ${duration.title} saved`);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/catalogue/durations/{durationId}",
      tags: ADMIN,
      summary: "Delete a warranty duration (orders keep theirs); audited",
      ...staffRoute("catalogue"),
      request: { params: pathParams("durationId") },
      responses: answers(200, deletedDurationSchema, "the deleted duration", {
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
        404: "no duration has this id",
      }),
    }),
    async (c) => {
      const durationId = idOf(c.req.valid("param").durationId, ADMIN_CATALOGUE_MESSAGES.durationNotFound);
      const deleted = await deleteDuration(c.get("db"), staffActor(c), durationId);
      changed(c);
      return ok(c, deleted, `Warranty ${deleted.title} deleted`);
    },
  );
