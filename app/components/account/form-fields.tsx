import { Link, useLocation, useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { type FieldMeta, type FormMeta, getInputProps } from "~/lib/server-form";

/* The pieces every account form is made of: labelled inputs with their errors, form errors, a submit button. */

type TextFieldProps = {
  label: string;
  meta: FieldMeta;
  type: "text" | "email" | "password";
  hint?: ReactNode;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "autoComplete" | "inputMode" | "autoFocus" | "placeholder">;

export function TextField({ label, meta, type, hint, ...attributes }: TextFieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...inputProps } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      <input
        key={key}
        {...inputProps}
        {...attributes}
        className="rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
      />
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const NEW_PASSWORD_HINT = "At least 8 characters; not a common password.";

/** A new password and its confirmation, as the sign-up, the reset and the settings ask for them. */
export function NewPasswordFields({
  password,
  password2,
  labels = ["New password", "Confirm new password"],
  hint = NEW_PASSWORD_HINT,
}: {
  password: TextFieldProps["meta"];
  password2: TextFieldProps["meta"];
  labels?: [string, string];
  hint?: string;
}) {
  return (
    <>
      <TextField label={labels[0]} meta={password} type="password" autoComplete="new-password" hint={hint} />
      <TextField label={labels[1]} meta={password2} type="password" autoComplete="new-password" />
    </>
  );
}

export function ErrorList({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <ul id={id} className="min-h-5 text-sm font-semibold text-red-700">
      {errors?.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/** Errors of the whole form (wrong password, rate limit, a taken email): announced when they appear. */
export function FormErrors({ form }: { form: Pick<FormMeta, "errorId" | "errors"> }) {
  if (!form.errors?.length) return null;
  return (
    <div
      id={form.errorId}
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800"
    >
      {form.errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

/** True while this page's form (the one whose submit button carries `intent`, when given) is posting. */
function useSubmitting(intent?: string): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "submitting" || !navigation.formAction) return false;
  if (new URL(navigation.formAction, "http://local").pathname !== location.pathname) return false;
  return intent === undefined || navigation.formData?.get("intent") === intent;
}

export function SubmitButton({
  children,
  pendingText,
  intent,
}: {
  children: ReactNode;
  pendingText: string;
  intent?: string;
}) {
  const submitting = useSubmitting(intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      aria-disabled={submitting}
      className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 aria-disabled:opacity-70"
    >
      {submitting ? pendingText : children}
    </button>
  );
}

/** The framed card that holds a sign-in style form, centred on the page (beside `aside` when there is one). */
/** Where a card's last line leads on: "No code? Send a new one". */
type NextStep = { lead?: string; to: string; label: string };

export function AccountCard({
  title,
  children,
  aside,
  next,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactNode;
  next?: NextStep;
}) {
  return (
    <div className="mx-auto flex max-w-5xl flex-col items-center gap-8 px-4 py-10 md:flex-row md:items-start md:justify-center">
      <section className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-6 text-2xl font-bold">{title}</h1>
        {children}
        {next ? (
          <p className="mt-6 text-sm text-slate-600">
            {next.lead ? `${next.lead} ` : null}
            <Link to={next.to} className="font-semibold text-brand-700 underline">
              {next.label}
            </Link>
          </p>
        ) : null}
      </section>
      {aside}
    </div>
  );
}
