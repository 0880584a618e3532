import type { HumanCheckChallenge } from "~/lib/accounts.server";
import { HoneypotField } from "./account/honeypot";
import { HUMAN_CHECK_ASKED_FIELD, HUMAN_CHECK_FIELD } from "~/lib/human-check-field";

/**
 * The human check of a form (guest checkout, sign-in after many failures, redeem, replacement): the builtin
 * signed token in a hidden field, the provider's widget, or, on a form shown again after a post, a visible
 * question whose choices each carry an answer (ADR 019); plus the honeypot. Builtin and the question work
 * without JavaScript. The question is a step of the form, not an error: a post too quick for the invisible check
 * comes back with what was typed and this question, and no error message (ADR 038). `reason` says why it is
 * asked where the form's own text does not.
 */
export function HumanCheck({ challenge, reason }: { challenge: HumanCheckChallenge | null; reason?: string }) {
  if (!challenge) {
    return <p className="text-sm text-red-700">The human check could not be loaded. Please refresh the page.</p>;
  }
  return (
    <>
      {challenge.provider === "builtin" && <input type="hidden" name={HUMAN_CHECK_FIELD} value={challenge.token} />}
      {challenge.provider === "question" && (
        // Keyed by the question, so a new one never keeps the previous question's choice checked.
        <fieldset
          key={challenge.question.choices[0]?.answer}
          className="flex flex-col gap-2 rounded-lg border border-brand-500 bg-brand-50 p-3"
        >
          <legend className="px-1 text-sm font-semibold">Quick check: {challenge.question.text}</legend>
          <input type="hidden" name={HUMAN_CHECK_ASKED_FIELD} value="question" />
          <p className="text-sm text-slate-700">
            {reason && `${reason} `}Choose the answer to show you are a person, then send the form again.
          </p>
          <div className="flex flex-wrap gap-2">
            {challenge.question.choices.map((choice) => (
              <label
                key={choice.answer}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 has-[:checked]:border-brand-600"
              >
                <input type="radio" name={HUMAN_CHECK_FIELD} value={choice.answer} required />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {(challenge.provider === "recaptcha" || challenge.provider === "turnstile") && (
        // The provider's script fills g-recaptcha-response inside this element.
        <div
          className={challenge.provider === "recaptcha" ? "g-recaptcha" : "cf-turnstile"}
          data-sitekey={challenge.siteKey}
          data-response-field-name={HUMAN_CHECK_FIELD}
        />
      )}
      <HoneypotField />
    </>
  );
}
