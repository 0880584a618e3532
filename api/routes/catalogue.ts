import { z } from "@hono/zod-openapi";
import {
  categoryListSchema,
  optionListSchema,
  optionWithProductSchema,
  productListSchema,
  productPageSchema,
  productSchema,
  shopShelvesSchema,
} from "../../contract/answers/catalogue";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { badRequest } from "../errors";
import { encodeOk, ok, okEncoded } from "../http";
import { BAD_INPUT, answers, apiRouter, declareRoute, pathParams } from "../openapi";
import {
  listCategories,
  listProductOptions,
  listProducts,
  readProduct,
  readProductOption,
  readProductPage,
} from "../services/catalogue/shop";
import { listShopShelves } from "../services/catalogue/shelves";

/** A malformed id cannot name a row: 400 with the contract's message, before any query. */
function publicId(value: string, field: "productId" | "optionId", message: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw badRequest(message, { [field]: [message] });
  return value;
}

const shelvesQuerySchema = z.object({
  search: z.string().max(100).optional().default("").openapi({ description: "part of a product's title, any case" }),
  category: z.string().max(64).optional().default("").openapi({ description: "one category's id: its shelf whole" }),
  perShelf: z.coerce.number().int().min(1).max(100).optional().default(12).openapi({
    description: "cards per shelf on the whole shop",
  }),
});

const productNotFound = { 400: "malformed `productId`: `Invalid product id`", 404: "`Product not found`" };
const optionNotFound = { 400: "malformed `optionId`: `Invalid option id`", 404: "`Option not found`" };

export const catalogueRoutes = apiRouter()
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/category/read",
      summary: "Categories by position",
      responses: answers(200, categoryListSchema, "the categories"),
    }),
    async (c) =>
      okEncoded(c, await c.get("snapshots").get("categories", async () => encodeOk(await listCategories(c.get("db"))))),
  )
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/read",
      summary: "Active products by position, with stock, lowest price and rating",
      responses: answers(200, productListSchema, "the products"),
    }),
    async (c) =>
      okEncoded(c, await c.get("snapshots").get("products", async () => encodeOk(await listProducts(c.get("db"))))),
  )
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/shelves",
      summary: "The shop's shelves: a category's matching products by position, the first `perShelf` of each",
      description:
        "Counted and paged by the database (a shop of any size costs a few shelves of cards). A `category` that " +
        "has no active product shows every shelf, as none does.",
      request: { query: shelvesQuerySchema },
      responses: answers(200, shopShelvesSchema, "the shelves", BAD_INPUT),
    }),
    async (c) => {
      const input = c.req.valid("query");
      const query = { ...input, search: input.search.trim() };
      // The whole shop, as every visit first sees it, is a snapshot like the product list; searches are not.
      if (query.search === "" && query.category === "") {
        const shelves = c
          .get("snapshots")
          .get(`shelves:${query.perShelf}`, async () => encodeOk(await listShopShelves(c.get("db"), query)));
        return okEncoded(c, await shelves);
      }
      return ok(c, await listShopShelves(c.get("db"), query));
    },
  )
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/read/{productId}",
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
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/page/{productId}",
      summary: "What a product page shows: the active product and its active options, in one answer",
      description:
        "The product carries only the fields its page uses; `/v1/product/read/{productId}` and " +
        "`/v1/product/option/read/{productId}` give the same data in two calls.",
      request: { params: pathParams("productId") },
      responses: answers(200, productPageSchema, "the product and its options", productNotFound),
    }),
    async (c) => {
      const productId = publicId(c.req.param("productId"), "productId", "Invalid product id");
      return ok(c, await readProductPage(c.get("db"), productId));
    },
  )
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/option/read/{productId}",
      summary: "The active options of an active product",
      request: { params: pathParams("productId") },
      responses: answers(200, optionListSchema, "the options", productNotFound),
    }),
    async (c) => {
      const productId = publicId(c.req.param("productId"), "productId", "Invalid product id");
      return ok(c, await listProductOptions(c.get("db"), productId));
    },
  )
  .openapi(
    declareRoute(["Catalogue"], {
      method: "get",
      path: "/product/option/readOne/{optionId}",
      summary: "One active option, with its product",
      request: { params: pathParams("optionId") },
      responses: answers(200, optionWithProductSchema, "the option", optionNotFound),
    }),
    async (c) => {
      const optionId = publicId(c.req.param("optionId"), "optionId", "Invalid option id");
      return ok(c, await readProductOption(c.get("db"), optionId));
    },
  );
