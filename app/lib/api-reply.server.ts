import type { Submission } from "@conform-to/react";
import type { ApiFailure } from "./api.server";

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
 * conform's reply to a form the API refused, with the status to answer: 429 stays 429 (the visitor
 * must wait), any other refusal is a 400.
 */
export function replyFromApi(
  submission: Pick<Submission<unknown>, "reply">,
  failure: ApiFailure,
  options: { fields: readonly string[]; hideFields?: string[] },
) {
  const { formErrors, fieldErrors } = formErrorsFromApi(failure, options.fields);
  return {
    result: submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields }),
    status: failure.status === 429 ? 429 : 400,
  };
}
