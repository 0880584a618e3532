import { createRoute, z } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { badRequest } from "../errors";
import { encodeOk, ok, okEncoded } from "../http";
import { answers, apiRouter, pathParams, publicIdSchema, usdSchema } from "../openapi";
import {
  listCategories,
  listProductOptions,
  listProducts,
  readProduct,
  readProductOption,
} from "../services/catalogue";

/** A malformed id cannot name a row: 400 with the contract's message, before any query. */
function publicId(value: string, field: "productId" | "optionId", message: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw badRequest(message, { [field]: [message] });
  return value;
}

const subOptionSchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  duration: z.number().int(),
  price: usdSchema,
});
const productSummarySchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  picture: z.string(),
  minQuantity: z.number().int(),
  maxQuantity: z.number().int().nullable(),
});
export const optionSchema = z
  .object({
    _id: publicIdSchema,
    title: z.string(),
    availableStock: z.number().int().openapi({
      description: "free seats: available credentials, one per buyer (ADR 025); always 999 for manual products",
    }),
    subOptions: z.array(subOptionSchema).openapi({ description: "the warranty durations" }),
  })
  .openapi("Option");
export const optionWithProductSchema = optionSchema
  .extend({ product: productSummarySchema })
  .openapi("OptionWithProduct");
const productSchema = z
  .object({
    _id: publicIdSchema,
    title: z.string(),
    label: z.string(),
    subtitle: z.string(),
    picture: z.string(),
    description: z.string().openapi({ description: "plain text; sections separated by a blank line" }),
    totalStock: z.number().int(),
    minPrice: usdSchema,
    minQuantity: z.number().int(),
    maxQuantity: z.number().int().nullable().openapi({ description: "null: no product limit" }),
    categoryIds: z.array(publicIdSchema),
    fullFillmode: z.enum(["auto", "manual"]),
    rating: z
      .object({ average: z.number(), count: z.number().int() })
      .openapi({ description: "visible feedback: average stars to one decimal (0 with none) and how many" }),
  })
  .openapi("Product");

const productNotFound = { 400: "malformed `productId`: `Invalid product id`", 404: "`Product not found`" };
const optionNotFound = { 400: "malformed `optionId`: `Invalid option id`", 404: "`Option not found`" };

export const catalogueRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/category/read",
      tags: ["Catalogue"],
      summary: "Categories by position",
      responses: answers(200, z.array(z.object({ _id: publicIdSchema, name: z.string() })), "the categories"),
    }),
    async (c) =>
      okEncoded(c, await c.get("snapshots").get("categories", async () => encodeOk(await listCategories(c.get("db"))))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/product/read",
      tags: ["Catalogue"],
      summary: "Active products by position, with stock, lowest price and rating",
      responses: answers(200, z.array(productSchema), "the products"),
    }),
    async (c) =>
      okEncoded(c, await c.get("snapshots").get("products", async () => encodeOk(await listProducts(c.get("db"))))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/product/read/{productId}",
      tags: ["Catalogue"],
      summary: "One active product, as the list gives it (a product page needs no whole catalogue)",
      request: { params: pathParams("productId") },
      responses: answers(200, productSchema, "the product", productNotFound),
    }),
    async (c) => {
      const productId = publicId(c.req.param("productId"), "productId", "Invalid product id");
      return ok(c, await readProduct(c.get("db"), productId));
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/product/option/read/{productId}",
      tags: ["Catalogue"],
      summary: "The active options of an active product",
      request: { params: pathParams("productId") },
      responses: answers(200, z.array(optionSchema), "the options", productNotFound),
    }),
    async (c) => {
      const productId = publicId(c.req.param("productId"), "productId", "Invalid product id");
      return ok(c, await listProductOptions(c.get("db"), productId));
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/product/option/readOne/{optionId}",
      tags: ["Catalogue"],
      summary: "One active option, with its product",
      request: { params: pathParams("optionId") },
      responses: answers(200, optionWithProductSchema, "the option", optionNotFound),
    }),
    async (c) => {
      const optionId = publicId(c.req.param("optionId"), "optionId", "Invalid option id");
      return ok(c, await readProductOption(c.get("db"), optionId));
    },
  );
