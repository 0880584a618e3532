import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "../../../contract/browser/ids";
import {
  BATCH_LABEL_MAX_LENGTH,
  STOCK_IMPORT_MAX_BYTES,
  STOCK_REMOVE_MAX_ACCOUNTS,
  batchLabelField,
} from "../../../contract/stock";

/*
 * The stock page's form schemas, parsed the same way by the browser (conform) and by the route's action; the
 * submit button's `intent` says which form was posted.
 */

export const NOTHING_TO_IMPORT = "Paste the credentials or choose a .txt file";
export const NOT_BOTH = "Paste the lines or choose a file, not both";
export const FILE_TOO_LARGE = "The file is larger than 5 MB: split it";
export const NOT_A_TEXT_FILE = "Choose a .txt file";

/** A file the browser sends as text: a `.txt` name or a text/plain type. */
const isTextFile = (file: File) => /\.txt$/i.test(file.name) || file.type === "text/plain";

export const stockImportSchema = z
  .object({
    text: z.string().max(STOCK_IMPORT_MAX_BYTES, "At most 5 MB at a time: split the list").optional(),
    file: z
      .instanceof(File, { message: NOT_A_TEXT_FILE })
      .refine((file) => file.size <= STOCK_IMPORT_MAX_BYTES, FILE_TOO_LARGE)
      .refine(isTextFile, NOT_A_TEXT_FILE)
      .optional(),
    label: batchLabelField,
  })
  .superRefine((value, context) => {
    const pasted = !!value.text?.trim();
    if (!pasted && !value.file) context.addIssue({ code: "custom", path: ["text"], message: NOTHING_TO_IMPORT });
    if (pasted && value.file) context.addIssue({ code: "custom", path: ["file"], message: NOT_BOTH });
  });

export const stockRemoveSchema = z.object({
  accounts: z
    .array(z.string().regex(PUBLIC_ID_PATTERN), {
      required_error: "Tick the credentials to remove",
      invalid_type_error: "Tick the credentials to remove",
    })
    .min(1, "Tick the credentials to remove")
    .max(STOCK_REMOVE_MAX_ACCOUNTS),
});

export const stockRemoveBatchSchema = z.object({
  batchLabel: z
    .string({ required_error: "Choose a batch", invalid_type_error: "Choose a batch" })
    .max(BATCH_LABEL_MAX_LENGTH),
  confirm: z.literal("on", {
    errorMap: () => ({ message: "Tick the box: the batch's unsold credentials cannot be put back" }),
  }),
});
