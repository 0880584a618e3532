import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import { useFormReply } from "./form-reply";

type FormOptions<Schema extends z.ZodTypeAny> = Pick<
  Parameters<typeof useForm<z.input<Schema>>>[0],
  "id" | "lastResult" | "defaultValue" | "shouldValidate"
>;

/**
 * A conform form driven by one zod schema, as the server's action parses it. The schema's rules
 * become HTML constraints the browser enforces without JavaScript (the form renders without
 * noValidate); once hydrated, conform validates a field on blur (or as `shouldValidate` says) and again
 * as it is corrected.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(schema: Schema, options: FormOptions<Schema>) {
  return useForm<z.input<Schema>>({
    shouldValidate: "onBlur",
    ...options,
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** useSchemaForm for the form `id` on a page whose action answers it by that id (ADR 049). */
export function useRepliedSchemaForm<Schema extends z.ZodTypeAny>(
  schema: Schema,
  id: string,
  options: Omit<FormOptions<Schema>, "id" | "lastResult"> = {},
) {
  return useSchemaForm(schema, { ...options, id, lastResult: useFormReply(id)?.result });
}
