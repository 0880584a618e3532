import {
  type FieldMetadata,
  type FormMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
} from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { inputClass, listOf } from "~/components/admin/admin-ui";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import { choiceSelectProps, withoutTextLimits } from "~/lib/control-props";
import { HiddenFields } from "~/components/admin/detail-ui";

/*
 * The fields of the back office's edit forms (conform metadata in, labelled controls out), and the form around
 * them: its errors, its hidden inputs and its submit button. Plain posts that work without JavaScript.
 */

// Any field of any form: the controls read only its name, id, errors and constraints.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Meta = FieldMetadata<any, any, string[]>;

export const textareaClass = `${inputClass} font-[inherit]`;

/** A control under its label, with a hint and its errors below. */
export function Field({
  meta,
  label,
  hint,
  className = "min-w-0",
  children,
}: {
  meta: Pick<Meta, "id" | "errorId" | "errors">;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

type FieldProps = { meta: Meta; label: ReactNode; hint?: ReactNode; className?: string };

/** A number box that opens the phone's number pad; `decimal` for money. */
export function NumberField({ decimal = false, step, ...field }: FieldProps & { decimal?: boolean; step?: string }) {
  const { key, ...props } = getInputProps(field.meta, { type: "number" });
  return (
    <Field {...field}>
      <input
        key={key}
        {...props}
        inputMode={decimal ? "decimal" : "numeric"}
        step={step ?? (decimal ? "0.01" : "1")}
        className={inputClass}
      />
    </Field>
  );
}

export function TextAreaField({
  rows,
  inputClassName = textareaClass,
  ...field
}: FieldProps & {
  rows: number;
  inputClassName?: string;
}) {
  const { key, ...props } = getTextareaProps(field.meta);
  return (
    <Field {...field}>
      <textarea key={key} {...props} rows={rows} className={inputClassName} />
    </Field>
  );
}

export function SelectField({ choices, ...field }: FieldProps & { choices: [value: string, label: string][] }) {
  const { key, ...props } = choiceSelectProps(getSelectProps(field.meta));
  return (
    <Field {...field}>
      <select key={key} {...props} className={inputClass}>
        {choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function DateTimeField(field: FieldProps) {
  const { key, ...props } = withoutTextLimits(getInputProps(field.meta, { type: "datetime-local" }));
  return (
    <Field {...field}>
      <input key={key} {...props} className={inputClass} />
    </Field>
  );
}

export function CheckboxField({ meta, label, className = "flex items-center gap-2 font-semibold" }: FieldProps) {
  const { key, ...props } = getInputProps(meta, { type: "checkbox" });
  return (
    <label className={className}>
      <input key={key} {...props} />
      {label}
    </label>
  );
}

/** Boxes to tick among `choices`, each sending its value under the field's name. */
export function CheckboxGroup({
  meta,
  legend,
  hint,
  choices,
  none,
  boxClassName,
}: {
  meta: Meta;
  legend: string;
  hint?: string;
  choices: { value: string; label: ReactNode }[];
  /** Said when there is nothing to tick. */
  none: string;
  boxClassName: string;
}) {
  const chosen = new Set(listOf(meta.initialValue));
  return (
    <fieldset className="flex min-w-0 flex-col gap-1">
      <legend className="text-sm font-semibold">{legend}</legend>
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <div className={`rounded-md border border-slate-300 p-2 ${boxClassName}`}>
        {choices.length === 0 && <p className="text-sm text-slate-600">{none}</p>}
        {choices.map((choice) => (
          <label key={choice.value} className="flex items-start gap-2 text-sm break-words">
            <input
              type="checkbox"
              name={meta.name}
              value={choice.value}
              defaultChecked={chosen.has(choice.value)}
              className="mt-1"
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/** A conform form: its errors, hidden inputs, fields, and the submit button that names its intent. */
export function AdminForm({
  form,
  intent,
  submitLabel,
  pendingText = "Saving…",
  hidden,
  encType,
  className = "flex flex-col gap-2",
  beside,
  children,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  intent: string;
  submitLabel: ReactNode;
  pendingText?: string;
  hidden?: Record<string, string | undefined>;
  encType?: "multipart/form-data";
  className?: string;
  /** Beside the submit button (a link to the page the form changes). */
  beside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form method="post" encType={encType} {...getFormProps(form)} className={className}>
      <FormErrors form={form} />
      <HiddenFields values={hidden} />
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton intent={intent} pendingText={pendingText}>
          {submitLabel}
        </SubmitButton>
        {beside}
      </div>
    </Form>
  );
}

/** A create form's one-time key, rendered by the loader; nothing when the form has none. */
export function OnceKeyField({ value }: { value: string | undefined }) {
  return value ? <input type="hidden" name={ONCE_KEY_FIELD} value={value} /> : null;
}
