/*
 * A field people never see and bots that fill every input do: a post that fills it is refused.
 * The name is the one the API's human-check challenge names (honeypotField), so every public
 * form of the store uses the same trap. The field itself is components/account/honeypot.tsx.
 */
export const HONEYPOT_FIELD = "name__confirm";

export function honeypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value !== "";
}

export const HONEYPOT_REFUSAL = "We could not accept this form. Please try again.";
