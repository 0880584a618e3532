import {
  categoryListSchema,
  optionListSchema,
  optionWithProductSchema,
  productListSchema,
  productSchema,
} from "../../contract/answers/catalogue";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { badRequest } from "../errors";
import { encodeOk, ok, okEncoded } from "../http";
import { answers, apiRouter, declareRoute, pathParams } from "../openapi";
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
