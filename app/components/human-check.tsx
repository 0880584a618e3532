import type { HumanCheckChallenge } from "~/lib/accounts.server";
import { HoneypotField } from "./account/honeypot";
import { HUMAN_CHECK_FIELD } from "./checkout/schema";

/**
 * The human check of a form (guest checkout, sign-in after many failures): the builtin signed token
 * in a hidden field, or the provider's widget, plus the honeypot. Works without JavaScript for builtin.
 */
export function HumanCheck({ challenge }: { challenge: HumanCheckChallenge | null }) {
  if (!challenge) {
    return <p className="text-sm text-red-700">The human check could not be loaded. Please refresh the page.</p>;
  }
  return (
    <>
      {challenge.provider === "builtin" ? (
        <input type="hidden" name={HUMAN_CHECK_FIELD} value={challenge.token} />
      ) : (
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
