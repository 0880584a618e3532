import { z } from "zod";
import { announcementSchema, faqSchema, socialLinkSchema } from "../../../contract/admin-content";
import type { AdminContent, OrderedList } from "./content.server";

/* The forms of the back office's content page, parsed the same way by conform and by the route's action. */

/** The announcement form: an unticked box is not sent, so here it means "do not show". */
export const announcementFormSchema = announcementSchema.extend({
  active: z
    .boolean()
    .optional()
    .transform((active) => active ?? false),
});

type Row = AdminContent["faqs"][number] | AdminContent["socialLinks"][number];

/** A field of a list's add and edit form: a line of text, or a textarea of `rows`. */
export type RowField = { name: string; label: string; hint?: string; placeholder?: string; rows?: number };

/** Each ordered list (FAQ, social links): its API, schema, form fields and words. */
export const CONTENT_LISTS = {
  faq: {
    api: "faqs",
    schema: faqSchema,
    title: "FAQ",
    noun: "question",
    empty: "No question yet: the FAQ page shows the store's built-in answers.",
    fields: [
      { name: "question", label: "Question" },
      { name: "answer", label: "Answer", rows: 4 },
    ],
  },
  link: {
    api: "social-links",
    schema: socialLinkSchema,
    title: "Social links",
    noun: "link",
    empty: "No link yet.",
    fields: [
      { name: "name", label: "Name", hint: "Discord, Telegram and X get their icon; any other name a globe" },
      { name: "link", label: "Web address", placeholder: "https://" },
    ],
  },
} as const satisfies Record<
  string,
  { api: OrderedList; schema: z.ZodTypeAny; title: string; noun: string; empty: string; fields: readonly RowField[] }
>;
export type ContentListKey = keyof typeof CONTENT_LISTS;

/** A row's name and its text, as the list shows them. */
export const rowName = (row: Row) => ("question" in row ? row.question : row.name);
export const rowText = (row: Row) => ("answer" in row ? row.answer : row.link);
export type ContentRow = Row;

const LIST_VERBS = ["add", "edit", "up", "down", "delete"] as const;
export type ListVerb = (typeof LIST_VERBS)[number];

/** The page's forms: the announcement, a document, and each verb of each list (`faq-edit`, `link-up`...). */
export const CONTENT_INTENTS = [
  "announcement",
  "document",
  ...(Object.keys(CONTENT_LISTS) as ContentListKey[]).flatMap((list) =>
    LIST_VERBS.map((verb) => `${list}-${verb}` as const),
  ),
] as const;
