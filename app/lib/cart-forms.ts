import { z } from "zod";
import { PUBLIC_ID_PATTERN, publicIdField } from "../../contract/ids";
import { QUANTITY_LIMIT } from "../../contract/order";
import { SELECT_WARRANTY } from "./cart-client";

const optionIdSchema = publicIdField("Unknown option");
const redirectToSchema = z.string().max(2_000).optional();

/* One schema per cart form; the same schema checks the form in the browser (conform) and in the action. */
export const addToCartSchema = z
  .object({
    intent: z.literal("add"),
    optionId: z.string({ required_error: "Please choose a plan" }).regex(PUBLIC_ID_PATTERN, "Please choose a plan"),
    /** The plan whose warranties the form showed: without JS another plan may be checked since. */
    warrantyOptionId: z.string({ required_error: SELECT_WARRANTY }).regex(PUBLIC_ID_PATTERN, SELECT_WARRANTY),
    duration: z.number({ required_error: SELECT_WARRANTY, invalid_type_error: SELECT_WARRANTY }).int().positive(),
    quantity: z.number({ required_error: "Please enter a quantity" }).int().min(1).max(QUANTITY_LIMIT),
    redirectTo: redirectToSchema,
    errorRedirectTo: redirectToSchema,
  })
  .refine((form) => form.warrantyOptionId === form.optionId, { message: SELECT_WARRANTY, path: ["duration"] });

export const updateCartLineSchema = z.object({
  intent: z.literal("update"),
  optionId: optionIdSchema,
  quantity: z.number({ required_error: "Please enter a quantity" }).int().min(1).max(QUANTITY_LIMIT),
  redirectTo: redirectToSchema,
});

export const removeCartLineSchema = z.object({
  intent: z.literal("remove"),
  optionId: optionIdSchema,
  redirectTo: redirectToSchema,
});

export const clearCartSchema = z.object({ intent: z.literal("clear"), redirectTo: redirectToSchema });
