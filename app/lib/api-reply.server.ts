import type { Submission } from "@conform-to/react";
import type { ApiFailure } from "./api.server";
import { HUMAN_CHECK_ASKED_FIELD, HUMAN_CHECK_FIELD } from "./human-check-field";

/**
 * An API refusal as conform errors: messages the API files under one of the form's visible
 * fields go next to that field; everything else (a wrong password, a taken email, a 429) is
 * an error of the whole form.
 */
export function formErrorsFromApi(
  failure: ApiFailure,
  visibleFields: readonly string[],
): { formErrors: string[]; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [field, messages] of Object.entries(failure.errors ?? {})) {
    if (visibleFields.includes(field)) fieldErrors[field] = messages;
    else formErrors.push(...messages);
  }
  if (Object.keys(fieldErrors).length === 0 && formErrors.length === 0) formErrors.push(failure.message);
  return { formErrors: [...new Set(formErrors)], fieldErrors };
}

/**
 * Whether the API refused the post for its human check alone while the form showed no question: a post
 * faster than the invisible check allows (a password manager, a quick typist), a spent or expired token, a
 * provider's no. The person saw no check, so the form is shown again with the question and no error (ADR 038).
 */
export function humanCheckToAsk(failure: ApiFailure, payload: Record<string, unknown>): boolean {
  return (
    failure.humanCheckRequired === true &&
    failure.errors?.[HUMAN_CHECK_FIELD] !== undefined &&
    payload[HUMAN_CHECK_ASKED_FIELD] !== "question"
  );
}

/**
 * conform's reply to a form the API refused, with the status to answer: 429 stays 429 (the visitor
 * must wait), any other refusal is a 400. A refusal by a check the person did not see replies with the
 * entered values and no error; the page renders the question (its challenge read while answering a post).
 */
export function replyFromApi(
  submission: Pick<Submission<unknown>, "reply" | "payload">,
  failure: ApiFailure,
  options: { fields: readonly string[]; hideFields?: string[] },
) {
  if (humanCheckToAsk(failure, submission.payload)) {
    return { result: submission.reply({ hideFields: options.hideFields }), status: 400 };
  }
  const { formErrors, fieldErrors } = formErrorsFromApi(failure, options.fields);
  return {
    result: submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields }),
    status: failure.status === 429 ? 429 : 400,
  };
}
