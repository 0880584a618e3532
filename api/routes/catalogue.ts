import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { badRequest } from "../errors";
import { encodeOk, ok, okEncoded } from "../http";
import { listCategories, listProductOptions, listProducts, readProductOption } from "../services/catalogue";

/** A malformed id cannot name a row: 400 with the contract's message, before any query. */
function publicId(value: string, field: "productId" | "optionId", message: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw badRequest(message, { [field]: [message] });
  return value;
}

export const catalogueRoutes = new Hono<ApiEnv>()
  .get("/category/read", async (c) =>
    okEncoded(c, await c.get("snapshots").get("categories", async () => encodeOk(await listCategories(c.get("db"))))),
  )
  .get("/product/read", async (c) =>
    okEncoded(c, await c.get("snapshots").get("products", async () => encodeOk(await listProducts(c.get("db"))))),
  )
  .get("/product/option/read/:productId", async (c) => {
    const productId = publicId(c.req.param("productId"), "productId", "Invalid product id");
    return ok(c, await listProductOptions(c.get("db"), productId));
  })
  .get("/product/option/readOne/:optionId", async (c) => {
    const optionId = publicId(c.req.param("optionId"), "optionId", "Invalid option id");
    return ok(c, await readProductOption(c.get("db"), optionId));
  });
