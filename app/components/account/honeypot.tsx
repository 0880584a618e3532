/*
 * A field people never see and bots that fill every input do: a post that fills it is refused.
 * The name is the one the API's human-check challenge names (honeypotField), so every public
 * form of the store uses the same trap.
 */
export const HONEYPOT_FIELD = "name__confirm";

export function HoneypotField() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function honeypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value !== "";
}

export const HONEYPOT_REFUSAL = "We could not accept this form. Please try again.";
