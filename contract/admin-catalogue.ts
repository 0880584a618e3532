import { z } from "zod";
import { hasAtMostTwoDecimals } from "./balance";
import { PUBLIC_ID_PATTERN } from "./ids";
import { UPLOADED_PICTURE } from "./pictures";

/*
 * The catalogue as the back office edits it (ADR 024): categories, products, their options and each
 * option's warranty durations. One set of field rules, shared by the API's validation and the forms.
 */

export const CATALOGUE_PAGE_SIZE = 50;

/** How a product's lines are delivered: from imported stock at payment (auto), or by staff (manual). */
export const FULFIL_MODES = ["auto", "manual"] as const;
export type FulfilMode = (typeof FULFIL_MODES)[number];
/** The largest picture a form may upload, before it is turned into WebP. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;

export const CATALOGUE_MESSAGES = {
  name: "Enter a name of 1 to 60 characters",
  title: "Enter a title of 1 to 120 characters",
  label: "A label is at most 40 characters",
  subtitle: "A subtitle is at most 200 characters",
  description: "A description is at most 5,000 characters",
  deliveryNotes: "Delivery notes are at most 2,000 characters",
  position: "Enter a whole number from 0 to 10,000",
  quantity: "Enter a whole number from 1 to 999",
  maxBelowMin: "The maximum cannot be below the minimum",
  fulfilMode: "Choose automatic or manual delivery",
  replacementLimit: "Enter a whole number from 0 to 100",
  categories: "Choose categories from the list",
  pictureUrl: "Upload the picture (the store serves every picture itself), or leave it empty",
  seats: "Enter a whole number of buyers per account, from 1 to 1,000",
  threshold: "Enter a whole number from 0 (never) to 100,000",
  durationTitle: "Enter a title of 1 to 60 characters",
  days: "Enter a whole number of days from 1 to 3,650",
  price: "Enter a price from $0 to $100,000, in cents at most",
  pictureFile: "Choose a PNG, JPEG, WebP or GIF picture",
  pictureTooLarge: `A picture is at most ${PICTURE_MAX_BYTES / 1024 / 1024} MB`,
  pictureUnreadable: "This file is not a picture we can read (PNG, JPEG, WebP or GIF)",
  pictureTooManyPixels: "This picture is too large: at most 6,000 × 6,000 pixels",
} as const;

const text = (max: number, message: string) => z.string({ invalid_type_error: message }).trim().max(max, message);
const requiredText = (max: number, message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, message);
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ required_error: message, invalid_type_error: message }).int(message).min(min, message).max(max, message);

export const positionField = wholeNumber(0, 10_000, CATALOGUE_MESSAGES.position);
export const quantityField = wholeNumber(1, 999, CATALOGUE_MESSAGES.quantity);

/**
 * One of the store's own pictures: an upload, or a file under /images/. Never an address elsewhere: every page
 * loads only from the store's origin (ADR 044), and the Content-Security-Policy allows images from it alone.
 */
export const pictureUrlField = z
  .string({ invalid_type_error: CATALOGUE_MESSAGES.pictureUrl })
  .trim()
  .max(2000, CATALOGUE_MESSAGES.pictureUrl)
  .refine(
    (value) =>
      value === "" ||
      UPLOADED_PICTURE.test(value) ||
      // The store's own files, never a way out of /images/ ("..").
      (/^\/images\/[A-Za-z0-9/_.-]+$/.test(value) && !value.includes("..")),
    CATALOGUE_MESSAGES.pictureUrl,
  );

export const categoryInputSchema = z.object({
  name: requiredText(60, CATALOGUE_MESSAGES.name),
  position: positionField.default(0),
});
export type CategoryInput = z.output<typeof categoryInputSchema>;

/** Every field of a product, so an edit states the whole product. */
export const productInputSchema = z
  .object({
    title: requiredText(120, CATALOGUE_MESSAGES.title),
    label: text(40, CATALOGUE_MESSAGES.label).default(""),
    subtitle: text(200, CATALOGUE_MESSAGES.subtitle).default(""),
    description: text(5_000, CATALOGUE_MESSAGES.description).default(""),
    deliveryNotes: text(2_000, CATALOGUE_MESSAGES.deliveryNotes).default(""),
    picture: pictureUrlField.default(""),
    minQuantity: quantityField.default(1),
    maxQuantity: quantityField.nullable().default(null),
    fulfilMode: z.enum(FULFIL_MODES, { errorMap: () => ({ message: CATALOGUE_MESSAGES.fulfilMode }) }),
    replacementLimit: wholeNumber(0, 100, CATALOGUE_MESSAGES.replacementLimit).default(3),
    autoReplace: z.boolean().default(true),
    active: z.boolean().default(true),
    position: positionField.default(0),
    categoryIds: z
      .array(z.string().regex(PUBLIC_ID_PATTERN, CATALOGUE_MESSAGES.categories), {
        invalid_type_error: CATALOGUE_MESSAGES.categories,
      })
      .max(50, CATALOGUE_MESSAGES.categories)
      .default([]),
  })
  .superRefine((product, context) => {
    if (product.maxQuantity !== null && product.maxQuantity < product.minQuantity) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ["maxQuantity"], message: CATALOGUE_MESSAGES.maxBelowMin });
    }
  });
export type ProductInput = z.output<typeof productInputSchema>;

export const optionInputSchema = z.object({
  title: requiredText(120, CATALOGUE_MESSAGES.title),
  seats: wholeNumber(1, 1_000, CATALOGUE_MESSAGES.seats).default(1),
  lowStockThreshold: wholeNumber(0, 100_000, CATALOGUE_MESSAGES.threshold).default(0),
  active: z.boolean().default(true),
  position: positionField.default(0),
});
export type OptionInput = z.output<typeof optionInputSchema>;

export const durationInputSchema = z.object({
  title: requiredText(60, CATALOGUE_MESSAGES.durationTitle),
  days: wholeNumber(1, 3_650, CATALOGUE_MESSAGES.days),
  price: z
    .number({ required_error: CATALOGUE_MESSAGES.price, invalid_type_error: CATALOGUE_MESSAGES.price })
    .min(0, CATALOGUE_MESSAGES.price)
    .max(100_000, CATALOGUE_MESSAGES.price)
    .refine(hasAtMostTwoDecimals, CATALOGUE_MESSAGES.price),
  position: positionField.default(0),
});
export type DurationInput = z.output<typeof durationInputSchema>;
