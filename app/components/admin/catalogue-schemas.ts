import { z } from "zod";
import {
  CATALOGUE_MESSAGES,
  type CategoryInput,
  type DurationInput,
  type OptionInput,
  type ProductInput,
  categoryInputSchema,
  durationInputSchema,
  optionInputSchema,
  positionField,
  productInputSchema,
  quantityField,
} from "../../../contract/admin-catalogue";

/*
 * The catalogue's forms (ADR 024), one schema each for the browser and the action. A form leaves an empty
 * field out and an unticked box unsent: the converters turn those into the API's "none" and "off".
 */

export const categoryFormSchema = z.object({
  name: categoryInputSchema.shape.name,
  position: positionField.optional(),
});
export const categoryInputOf = (form: z.output<typeof categoryFormSchema>): CategoryInput => ({
  name: form.name,
  position: form.position ?? 0,
});

const productShape = productInputSchema.innerType().shape;

export const productFormSchema = z
  .object({
    title: productShape.title,
    label: productShape.label.removeDefault().optional(),
    subtitle: productShape.subtitle.removeDefault().optional(),
    description: productShape.description.removeDefault().optional(),
    deliveryNotes: productShape.deliveryNotes.removeDefault().optional(),
    picture: productShape.picture.removeDefault().optional(),
    minQuantity: quantityField.optional(),
    maxQuantity: quantityField.optional(),
    fulfilMode: productShape.fulfilMode,
    replacementLimit: z
      .number({ invalid_type_error: CATALOGUE_MESSAGES.replacementLimit })
      .int(CATALOGUE_MESSAGES.replacementLimit)
      .min(0, CATALOGUE_MESSAGES.replacementLimit)
      .max(100, CATALOGUE_MESSAGES.replacementLimit)
      .optional(),
    autoReplace: z.boolean().optional(),
    active: z.boolean().optional(),
    position: positionField.optional(),
    categoryIds: z.array(z.string()).optional(),
  })
  .superRefine((product, context) => {
    if (product.maxQuantity !== undefined && product.maxQuantity < (product.minQuantity ?? 1)) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ["maxQuantity"], message: CATALOGUE_MESSAGES.maxBelowMin });
    }
  });

export const PRODUCT_FIELDS = [
  "title",
  "label",
  "subtitle",
  "description",
  "deliveryNotes",
  "picture",
  "minQuantity",
  "maxQuantity",
  "fulfilMode",
  "replacementLimit",
  "position",
  "categoryIds",
] as const;

export function productInputOf(form: z.output<typeof productFormSchema>): ProductInput {
  return {
    title: form.title,
    label: form.label ?? "",
    subtitle: form.subtitle ?? "",
    description: form.description ?? "",
    deliveryNotes: form.deliveryNotes ?? "",
    picture: form.picture ?? "",
    minQuantity: form.minQuantity ?? 1,
    maxQuantity: form.maxQuantity ?? null,
    fulfilMode: form.fulfilMode,
    replacementLimit: form.replacementLimit ?? 3,
    autoReplace: form.autoReplace ?? false,
    active: form.active ?? false,
    position: form.position ?? 0,
    categoryIds: form.categoryIds ?? [],
  };
}

export const optionFormSchema = z.object({
  title: optionInputSchema.shape.title,
  seats: optionInputSchema.shape.seats.removeDefault().optional(),
  lowStockThreshold: optionInputSchema.shape.lowStockThreshold.removeDefault().optional(),
  active: z.boolean().optional(),
  position: positionField.optional(),
});
export const OPTION_FIELDS = ["title", "seats", "lowStockThreshold", "position"] as const;
export const optionInputOf = (form: z.output<typeof optionFormSchema>): OptionInput => ({
  title: form.title,
  seats: form.seats ?? 1,
  lowStockThreshold: form.lowStockThreshold ?? 0,
  active: form.active ?? false,
  position: form.position ?? 0,
});

export const durationFormSchema = z.object({
  title: durationInputSchema.shape.title,
  days: durationInputSchema.shape.days,
  price: durationInputSchema.shape.price,
  position: positionField.optional(),
});
export const DURATION_FIELDS = ["title", "days", "price", "position"] as const;
export const durationInputOf = (form: z.output<typeof durationFormSchema>): DurationInput => ({
  ...form,
  position: form.position ?? 0,
});

/** The picture form: a file, checked again (and decoded) by the API. */
export const pictureFormSchema = z.object({
  picture: z.instanceof(File, { message: CATALOGUE_MESSAGES.pictureFile }),
});
