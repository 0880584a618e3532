import { z } from "zod";
import { contactOpenSchema, contactReplySchema } from "../../../contract/contact";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";

/* The contact pages' forms (ADR 039), parsed the same way by the browser's constraints and by the route actions. */

export const contactFormSchema = contactOpenSchema.extend({
  [HUMAN_CHECK_FIELD]: z.string().max(4_096).optional().default(""),
});

export const contactReplyFormSchema = contactReplySchema;
