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
 * a toast). Secret fields never come back in a reply, and every reply has the one shape of FormReply. A form that
 * renders no errors (a list's button, the cart panel) takes `toast`: its refusals become an error toast on a page.
 */

type Parsed<Schema extends z.ZodTypeAny> = z.output<Schema>;
type ParsedSubmission<Schema extends z.ZodTypeAny> = Submission<z.input<Schema>, string[], Parsed<Schema>>;
/** A redirect or a page's reply (`data`). */
type Answer = Response | ReturnType<typeof data>;
/** What `postedForm` reads: the form, or "too large" when a part (an uploaded file) went over its cap. */
type Posted = FormData | "too large";

type CommonOptions<Schema extends z.ZodTypeAny, Payload> = {
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
  call: (value: Parsed<Schema>) => Promise<ApiResult<Payload>>;
  /**
   * What the form does with the API's yes: most redirect with a toast (see `toastAnswer`); a form with a next
   * step, or that shows what the API made once (recovery codes), replies to it (`replyToForm`, with
   * `submission.reply({resetForm: true})` to empty the form); a download answers with the file.
   */
  done: (
    answer: ApiSuccess<Payload>,
    value: Parsed<Schema>,
    submission: ParsedSubmission<Schema>,
  ) => Answer | Promise<Answer>;
};

/** A form on the page: its refusals come back to it as a reply it renders (field and form errors). */
type ReplyOptions<Schema extends z.ZodTypeAny, Payload, Extra> = CommonOptions<Schema, Payload> & {
  /** The id of the form on the page; its reply reaches that form alone (useFormReply). */
  form: string;
  /**
   * Added to every refusal: what the form needs to render again (a fresh human-check challenge). It gets the
   * API's refusal when there is one (a sign-in shows the human check only when the API asks for it).
   */
  extra?: (refusal?: ApiFailure) => Promise<Extra> | Extra;
  /**
   * API refusals that end this form's step (a spent sign-in challenge): replied to the form `form` instead,
   * with the API's message and status and none of the step's values.
   */
  startOver?: { form: string; when: (refusal: ApiFailure) => boolean };
  /** The field errors of a post over postedForm's size cap (an uploaded file), refused before any parsing. */
  tooLarge?: Record<string, string>;
  toast?: never;
};

/**
 * A form that renders no errors (a button in a list, the cart panel's small forms, a download): every
 * refusal goes back to the page `to` with an error toast.
 */
export type ToastRefusals = {
  context: AppLoadContext;
  to: string;
  /** The toast's text; by default the API's message (`refusal`), or the schema's first one when there is none. */
  message?: (refusal?: ApiFailure) => string;
};

type ToastOptions<Schema extends z.ZodTypeAny, Payload> = CommonOptions<Schema, Payload> & {
  toast: ToastRefusals;
  form?: never;
};

export type FormActionOptions<Schema extends z.ZodTypeAny, Payload, Extra> =
  ReplyOptions<Schema, Payload, Extra> | ToastOptions<Schema, Payload>;

const CHECK_THE_FORM = "Please check the form";

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

export async function formAction<Schema extends z.ZodTypeAny, Payload, Extra = never>(
  posted: Posted,
  options: FormActionOptions<Schema, Payload, Extra>,
): Promise<Answer> {
  const { schema, hideFields } = options;
  const refuse = options.toast
    ? toastRefusal(options.toast)
    : replyRefusal(options as ReplyOptions<Schema, Payload, Extra>);
  if (posted === "too large") return refuse.tooLarge(parseWithZod(new FormData(), { schema }));
  const submission = parseWithZod(posted, { schema }) as ParsedSubmission<Schema>;
  if (options.honeypot && honeypotFilled(posted)) {
    return refuse.schema(submission, { formErrors: [HONEYPOT_REFUSAL], hideFields });
  }
  if (submission.status !== "success") return refuse.schema(submission, { hideFields }, submission.error);
  const value = submission.value;
  const answer = await options.call(value);
  if (!answer.ok) return refuse.api(submission, answer);
  return options.done(answer, value, submission);
}

type RefusalOf = {
  tooLarge: (empty: Pick<Submission<unknown>, "reply">) => Answer | Promise<Answer>;
  schema: (
    submission: Pick<Submission<unknown>, "reply">,
    reply: { formErrors?: string[]; hideFields?: string[] },
    error?: Record<string, string[] | null> | null,
  ) => Promise<Answer>;
  api: (submission: Pick<Submission<unknown>, "reply" | "payload">, refusal: ApiFailure) => Promise<Answer>;
};

/** Refusals as the form's own reply: field errors beside the fields, the rest on the whole form. */
function replyRefusal<Schema extends z.ZodTypeAny, Payload, Extra>(
  options: ReplyOptions<Schema, Payload, Extra>,
): RefusalOf {
  const { form, schema, hideFields, extra, startOver } = options;
  return {
    tooLarge: (empty) => {
      if (!options.tooLarge) throw new Response("Payload too large", { status: 413 });
      const fieldErrors = Object.fromEntries(Object.entries(options.tooLarge).map(([name, error]) => [name, [error]]));
      return replyToForm(form, empty.reply({ fieldErrors }), 400);
    },
    schema: (submission, reply) => replyToForm(form, submission.reply(reply), 400, extra),
    api: (submission, refusal) => {
      if (startOver?.when(refusal)) {
        const result = submission.reply({ formErrors: [refusal.message], hideFields: schemaFields(schema) });
        return replyToForm(startOver.form, result, refusal.status);
      }
      const fields = options.fields ?? schemaFields(schema);
      const { result, status } = replyFromApi(submission, refusal, { fields, hideFields });
      return replyToForm(form, result, status, extra && (() => extra(refusal)));
    },
  };
}

/** Refusals as an error toast on the page `to`. */
function toastRefusal({ context, to, message }: ToastRefusals): RefusalOf {
  const toast = (text: string) => redirectWithError(context, to, text);
  return {
    tooLarge: () => {
      throw new Response("Payload too large", { status: 413 });
    },
    schema: (_submission, reply, error) =>
      toast(reply.formErrors?.[0] ?? message?.() ?? Object.values(error ?? {}).flat()[0] ?? CHECK_THE_FORM),
    api: (_submission, refusal) => toast(message?.(refusal) ?? refusal.message),
  };
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
