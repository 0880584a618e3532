import type { SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";

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
