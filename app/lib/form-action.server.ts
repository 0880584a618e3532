import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type AppLoadContext, data } from "@remix-run/node";
import { z } from "zod";
import { HONEYPOT_REFUSAL, honeypotFilled } from "./honeypot";
import type { ApiFailure, ApiResult, ApiSuccess } from "./api.server";
import { replyFromApi } from "./api-reply.server";
import type { FormReply } from "./form-reply";
import { redirectWithError, redirectWithSuccess } from "./toast.server";

/*
 * The one path of a form post (ADR 049): parse with the form's schema -> a 400 reply with the field errors ->
 * call the API -> its refusal mapped to field or form errors -> what the form does on success (most redirect with
 * a toast). Secret fields never come back in a reply, and every reply has the one shape of FormReply.
 */

type Parsed<Schema extends z.ZodTypeAny> = z.output<Schema>;
/** A redirect or a page's reply (`data`). */
type Answer = Response | ReturnType<typeof data>;

export type FormActionOptions<Schema extends z.ZodTypeAny, Payload, Extra> = {
  /** The id of the form on the page; its reply reaches that form alone (useFormReply). */
  form: string;
  schema: Schema;
  /**
   * The fields the API's field errors may stand beside; its other messages are errors of the whole form.
   * By default the schema's own fields.
   */
  fields?: readonly string[];
  /** Fields never echoed back in a reply: passwords, codes. */
  hideFields?: string[];
  /** Refuse a post whose honeypot field is filled (a public form). */
  honeypot?: boolean;
  /**
   * Added to every refusal: what the form needs to render again (a fresh human-check challenge). It gets the
   * API's refusal when there is one (a sign-in shows the human check only when the API asks for it).
   */
  extra?: (refusal?: ApiFailure) => Promise<Extra> | Extra;
  call: (value: Parsed<Schema>) => Promise<ApiResult<Payload>>;
  /**
   * What the form does with the API's yes: most redirect with a toast (see `toastAnswer`); a form with a next
   * step, or that shows what the API made once (recovery codes), replies to it (`replyToForm`).
   */
  done: (answer: ApiSuccess<Payload>, value: Parsed<Schema>) => Answer | Promise<Answer>;
};

/** The reply to a form, as the page's useFormReply reads it. */
export async function replyToForm<Extra = never>(
  form: string,
  result: FormReply["result"],
  status: number,
  extra?: () => Promise<Extra> | Extra,
) {
  const reply: FormReply<Extra> = extra ? { form, result, extra: await extra() } : { form, result };
  return data(reply, { status });
}

/** The field names of a schema, through refinements, for mapping API errors onto them. */
export function schemaFields(schema: z.ZodTypeAny): string[] {
  if (schema instanceof z.ZodEffects) return schemaFields(schema.innerType());
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape as z.ZodRawShape);
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion) {
    return [...new Set((schema.options as z.ZodTypeAny[]).flatMap(schemaFields))];
  }
  return [];
}

/** The refusal of a post the schema did not accept. */
export function refuseSubmission(
  submission: Pick<Submission<unknown>, "reply">,
  options: { form: string; hideFields?: string[]; formErrors?: string[] },
) {
  return replyToForm(
    options.form,
    submission.reply({ hideFields: options.hideFields, formErrors: options.formErrors }),
    400,
  );
}

export async function formAction<Schema extends z.ZodTypeAny, Payload, Extra = never>(
  formData: FormData,
  options: FormActionOptions<Schema, Payload, Extra>,
) {
  const { form, schema, hideFields, extra } = options;
  const submission = parseWithZod(formData, { schema });
  if (options.honeypot && honeypotFilled(formData)) {
    return replyToForm(form, submission.reply({ formErrors: [HONEYPOT_REFUSAL], hideFields }), 400, extra);
  }
  if (submission.status !== "success") return replyToForm(form, submission.reply({ hideFields }), 400, extra);
  const value = submission.value as Parsed<Schema>;
  const answer = await options.call(value);
  if (!answer.ok) {
    const fields = options.fields ?? schemaFields(schema);
    const { result, status } = replyFromApi(submission, answer, { fields, hideFields });
    return replyToForm(form, result, status, extra && (() => extra(answer)));
  }
  return options.done(answer, value);
}

/** A command without fields (a delete button): back to `url` with the API's message as a success or an error toast. */
export function toastAnswer(context: AppLoadContext, url: string, answer: ApiResult<unknown>, init?: ResponseInit) {
  return answer.ok
    ? redirectWithSuccess(context, url, answer.message, init)
    : redirectWithError(context, url, answer.message, init);
}

/** The intent of a page's posted form, one of `intents`; another is a 400, as a browser never sends it. */
export function intentOf<const Intent extends string>(formData: FormData, intents: readonly Intent[]): Intent {
  const intent = formData.get("intent");
  if (typeof intent === "string" && (intents as readonly string[]).includes(intent)) return intent as Intent;
  throw new Response("Unknown form", { status: 400 });
}
