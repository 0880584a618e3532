import { z } from "@hono/zod-openapi";
import {
  CATALOGUE_MESSAGES,
  CATALOGUE_PAGE_SIZE,
  PICTURE_MAX_BYTES,
  categoryInputSchema,
  productInputSchema,
} from "../../../contract/admin-catalogue";
import {
  adminCategoriesSchema,
  adminCategorySchema,
  adminProductPageSchema,
  adminProductSchema,
  deletedCategorySchema,
} from "../../../contract/answers/admin-catalogue";
import { createdOnce } from "../../idempotent-answer";
import { badRequest } from "../../errors";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody, pathParams, ONCE_FAILURES, idempotencyKeyHeader } from "../../openapi";
import {
  ADMIN_CATALOGUE_MESSAGES,
  createCategory,
  deleteCategory,
  listCategories,
  updateCategory,
} from "../../services/catalogue/admin";
import {
  createProduct,
  listProducts,
  readProduct,
  setProductPicture,
  updateProduct,
} from "../../services/catalogue/admin-products";
import { storeProductPicture } from "../../services/catalogue/pictures";
import { FAILURES, STAFF_FAILURES, adminRoute, catalogueChanged, idOf, pageField, searchField } from "./admin-route";

import { catalogueOptionRoutes } from "./catalogue-options";

/*
 * /v1/admin/catalogue (ADR 024): categories, products, options (catalogue-options.ts) and warranty durations, for managers and
 * owners. Every change is audited and forgets this process's catalogue snapshots, so the shop shows it at
 * once here and within CATALOGUE_CACHE_MS on every other instance.
 */

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
    adminRoute("catalogue", {
      method: "get",
      path: "/catalogue/categories",
      summary: "Every category in shop order, with how many products it holds",
      responses: answers(200, adminCategoriesSchema, "the categories", STAFF_FAILURES),
    }),
    async (c) => ok(c, await listCategories(c.get("db"))),
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/catalogue/categories",
      summary: "Create a category; audited",
      request: { headers: idempotencyKeyHeader, body: jsonBody(categoryInputSchema) },
      responses: answers(201, adminCategorySchema, "the new category", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const category = await createCategory(c.get("db"), staffActor(c), input);
        catalogueChanged(c);
        return { payload: category, message: `Category ${category.name} created` };
      });
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "put",
      path: "/catalogue/categories/{categoryId}",
      summary: "Rename or move a category; audited",
      request: { params: pathParams("categoryId"), body: jsonBody(categoryInputSchema) },
      responses: answers(200, adminCategorySchema, "the category", { ...FAILURES, 404: "no category has this id" }),
    }),
    async (c) => {
      const categoryId = idOf(c.req.valid("param").categoryId, ADMIN_CATALOGUE_MESSAGES.categoryNotFound);
      const category = await updateCategory(c.get("db"), staffActor(c), categoryId, c.req.valid("json"));
      catalogueChanged(c);
      return ok(c, category, `Category ${category.name} saved`);
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "delete",
      path: "/catalogue/categories/{categoryId}",
      summary: "Delete a category (its products stay); audited",
      request: { params: pathParams("categoryId") },
      responses: answers(200, deletedCategorySchema, "the deleted category's name", {
        ...STAFF_FAILURES,
        404: "no category has this id",
      }),
    }),
    async (c) => {
      const categoryId = idOf(c.req.valid("param").categoryId, ADMIN_CATALOGUE_MESSAGES.categoryNotFound);
      const deleted = await deleteCategory(c.get("db"), staffActor(c), categoryId);
      catalogueChanged(c);
      return ok(c, deleted, `Category ${deleted.name} deleted`);
    },
  )
  // ---------------------------------------------------------------- products
  .openapi(
    adminRoute("catalogue", {
      method: "get",
      path: "/catalogue/products",
      summary: `Every product (hidden ones too) in shop order, ${CATALOGUE_PAGE_SIZE} a page`,
      request: {
        query: z.object({
          page: pageField,
          search: searchField("part of the title or label"),
        }),
      },
      responses: answers(200, adminProductPageSchema, "a page", FAILURES),
    }),
    async (c) => ok(c, await listProducts(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("catalogue", {
      method: "get",
      path: "/catalogue/products/{productId}",
      summary: "A product with every option (hidden ones too), free seats and warranty durations",
      request: { params: pathParams("productId") },
      responses: answers(200, adminProductSchema, "the product", {
        ...STAFF_FAILURES,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      return ok(c, await readProduct(c.get("db"), productId));
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/catalogue/products",
      summary: "Create a product; audited",
      description:
        "`picture` is the address of one of the store's own pictures (an upload or an /images/ file), or empty; upload a file with …/picture.",
      request: { headers: idempotencyKeyHeader, body: jsonBody(productInputSchema) },
      responses: answers(201, adminProductSchema, "the new product", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const product = await createProduct(c.get("db"), staffActor(c), input);
        catalogueChanged(c);
        return { payload: product, message: `Product ${product.title} created` };
      });
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "put",
      path: "/catalogue/products/{productId}",
      summary: "Save a product (every field); audited",
      request: { params: pathParams("productId"), body: jsonBody(productInputSchema) },
      responses: answers(200, adminProductSchema, "the product", { ...FAILURES, 404: "no product has this id" }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      const product = await updateProduct(c.get("db"), staffActor(c), productId, c.req.valid("json"));
      catalogueChanged(c);
      return ok(c, product, `Product ${product.title} saved`);
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/catalogue/products/{productId}/picture",
      summary: "Upload a product's picture; stored as WebP at phone and desktop widths; audited",
      description:
        "The bytes must be a PNG, JPEG, WebP or GIF (checked by their first bytes and by decoding), " +
        `${PICTURE_MAX_BYTES} bytes at most and 6,000 × 6,000 pixels at most. Served from /uploads/products/ ` +
        "with a year's caching.",
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
      catalogueChanged(c);
      return ok(c, product, "Picture saved");
    },
  )
  .route("/", catalogueOptionRoutes);
