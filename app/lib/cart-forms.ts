import { z } from "zod";
import { publicIdField } from "../../contract/ids";
import { QUANTITY_LIMIT } from "../../contract/order";

const optionIdSchema = publicIdField("Unknown option");
const redirectToSchema = z.string().max(2_000).optional();

/* One schema per cart form; the same schema checks the form in the browser (conform) and in the action. */
export const addToCartSchema = z.object({
  intent: z.literal("add"),
  optionId: optionIdSchema,
  duration: z
    .number({
      required_error: "Please select a warranty option",
      invalid_type_error: "Please select a warranty option",
    })
    .int()
    .positive(),
  quantity: z.number({ required_error: "Please enter a quantity" }).int().min(1).max(QUANTITY_LIMIT),
  redirectTo: redirectToSchema,
});

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
