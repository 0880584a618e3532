import { z } from "zod";
import { credentialIndexField, otherRequestMessageField, replacementMessageField } from "../../contract/request";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";

/* The order page's request forms, parsed the same way by the browser (conform) and by the page's action. */

const lineFields = {
  productId: z.string({ required_error: "Choose a product" }).max(64),
  productOptionId: z.string({ required_error: "Choose a product" }).max(64),
};

export const replacementFormSchema = z.object({
  intent: z.literal("replace"),
  ...lineFields,
  index: credentialIndexField,
  message: replacementMessageField,
  [HUMAN_CHECK_FIELD]: z.string().max(8192).optional(),
});

export const otherRequestFormSchema = z.object({
  intent: z.literal("ask"),
  ...lineFields,
  message: otherRequestMessageField,
});
