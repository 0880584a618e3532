import type { SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";
import { type Constraint, type Options, type Values, useServerForm } from "./server-form";

/*
 * The one reply a form action gives when it does not redirect (ADR 049): the id of the form it answers, so a
 * page with several forms shows it beside that one only, conform's result (values and errors), and what else
 * the refused form needs to render again (a fresh human check, the second step of a sign-in).
 */
export type FormReply<Extra = never> = {
  form: string;
  result: SubmissionResult<string[]>;
  extra?: Extra;
};

/** The action's reply to the form `form` (any form's, without one), if that is the form just posted. */
export function useFormReply<Extra = never>(form?: string): FormReply<Extra> | undefined {
  const reply = useActionData() as FormReply<Extra> | undefined;
  if (!reply || typeof reply !== "object" || !("form" in reply)) return undefined;
  return form === undefined || reply.form === form ? reply : undefined;
}

/**
 * useServerForm for the form `id` on a page whose action answers it by that id (ADR 049). It lives here, not in server-form.ts,
 * so a page with a form that takes no reply (the product page) does not load it.
 */
export function useRepliedServerForm<Shape extends Values>(
  constraints: { readonly [Name in keyof Shape]?: Constraint },
  id: string,
  options: Pick<Options<Shape>, "defaultValue"> = {},
) {
  return useServerForm<Shape>(constraints, { ...options, id, lastResult: useFormReply(id)?.result });
}
