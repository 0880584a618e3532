import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/*
 * Storefront forms without a form library or zod in the browser (ADR 032). The action parses the post with the
 * form's zod schema and replies with conform's SubmissionResult; this module turns that reply into the field
 * props (values, errors, aria attributes) and the schema's HTML constraints, generated into
 * app/lib/form-constraints.ts, into attributes the browser enforces while JavaScript is off. With JavaScript
 * the form is posted without a page load and the server's messages appear beside the fields.
 */

/** The HTML constraints of one field, as conform's getZodConstraint derives them from a zod schema. */
export type Constraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  step?: number | string;
  pattern?: string;
  multiple?: boolean;
};

export type FieldMeta = Constraint & {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors: string[] | undefined;
  /** The value to show: the one posted (echoed by a failed reply) or the form's default. */
  initialValue: string | undefined;
  /** Changes when a reply resets the form, so the inputs start again empty (conform's metadata fits too). */
  key: string | undefined;
};

export type FormMeta = {
  id: string;
  errorId: string;
  errors: string[] | undefined;
  /** Once hydrated the server's messages replace the browser's bubbles, as they do for the same rules. */
  noValidate: boolean;
};

export type Values = Record<string, unknown>;

export type Options<Shape extends Values> = {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<{ [Name in keyof Shape]: unknown }>;
};

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? asText(value[0]) : String(value);
}

/**
 * Counts the replies seen (to focus the first field to correct after each) and the replies that reset the form
 * (conform's `resetForm`: initialValue null), which remount the inputs empty. Other replies leave the inputs as
 * the visitor left them, even when they type while a reply is on its way.
 */
function useReplyCounts(lastResult: SubmissionResult<string[]> | null | undefined) {
  // State from the previous render, as React's docs do it: a new reply counts in the same render.
  const [seen, setSeen] = useState(lastResult);
  const [counts, setCounts] = useState({ replies: 0, resets: 0 });
  if (seen === lastResult) return counts;
  const next = {
    replies: counts.replies + 1,
    resets: counts.resets + (lastResult?.initialValue === null ? 1 : 0),
  };
  setSeen(lastResult);
  setCounts(next);
  return next;
}

/**
 * The form `options.id`, its fields from `constraints` (one entry of FORM_CONSTRAINTS), and the server's last
 * reply. `Shape` is the form's input type (z.input of its schema), which keeps field names checked.
 */
export function useServerForm<Shape extends Values>(
  constraints: { readonly [Name in keyof Shape]?: Constraint },
  options: Options<Shape>,
): [FormMeta, { [Name in keyof Shape]-?: FieldMeta }] {
  const { id: formId, lastResult } = options;
  const hydrated = useHydrated();
  const { replies, resets } = useReplyCounts(lastResult);
  const values: Values =
    (lastResult?.initialValue as Values | null | undefined) ?? (options.defaultValue as Values | undefined) ?? {};
  const errors = lastResult?.error ?? {};

  const fields = {} as { [Name in keyof Shape]-?: FieldMeta };
  for (const name of Object.keys(constraints) as (keyof Shape & string)[]) {
    const id = `${formId}-${name}`;
    fields[name] = {
      ...constraints[name],
      id,
      name,
      formId,
      errorId: `${id}-error`,
      descriptionId: `${id}-description`,
      errors: errors[name] ?? undefined,
      initialValue: asText(values[name]),
      key: `${name}-${resets}`,
    };
  }

  // After a reply with field errors, the first field to correct gets the focus, as after a browser's own check.
  useEffect(() => {
    if (replies === 0) return;
    const form = document.getElementById(formId);
    form?.querySelector<HTMLElement>('[aria-invalid="true"]:not([type="hidden"])')?.focus();
  }, [formId, replies]);

  const form: FormMeta = {
    id: formId,
    errorId: `${formId}-form-error`,
    errors: errors[""] ?? undefined,
    noValidate: hydrated,
  };
  return [form, fields];
}

function ariaOf(meta: { errors: string[] | undefined; errorId: string }, describedBy?: string) {
  const invalid = meta.errors !== undefined;
  return {
    "aria-invalid": invalid || undefined,
    "aria-describedby": (invalid ? `${meta.errorId} ${describedBy ?? ""}`.trim() : describedBy) || undefined,
  };
}

/** What every control of a field carries: its identity, whether it is required, and its error's aria attributes. */
function controlProps(meta: FieldMeta, ariaDescribedBy?: string) {
  return {
    key: meta.key,
    id: meta.id,
    name: meta.name,
    required: meta.required || undefined,
    ...ariaOf(meta, ariaDescribedBy),
  };
}

export function getFormProps(form: FormMeta) {
  return {
    id: form.id,
    noValidate: form.noValidate,
    ...ariaOf(form),
  };
}

type InputOptions = { type: string; value?: string; ariaDescribedBy?: string };

export function getInputProps(meta: FieldMeta, { type, value, ariaDescribedBy }: InputOptions) {
  const checkable = type === "checkbox" || type === "radio";
  const checkedValue = value ?? "on";
  return {
    ...controlProps(meta, ariaDescribedBy),
    type,
    minLength: meta.minLength,
    maxLength: meta.maxLength,
    min: meta.min,
    max: meta.max,
    step: meta.step,
    pattern: meta.pattern,
    ...(checkable
      ? { value: checkedValue, defaultChecked: meta.initialValue === checkedValue }
      : { defaultValue: meta.initialValue }),
  };
}

export function getTextareaProps(meta: FieldMeta, { ariaDescribedBy }: { ariaDescribedBy?: string } = {}) {
  return {
    ...controlProps(meta, ariaDescribedBy),
    minLength: meta.minLength,
    maxLength: meta.maxLength,
    defaultValue: meta.initialValue,
  };
}

export function getSelectProps(meta: FieldMeta) {
  return { ...controlProps(meta), defaultValue: meta.initialValue };
}

/** One radio per option, the replied (or default) one checked. */
export function getRadioGroupProps(meta: FieldMeta, options: readonly string[]) {
  return options.map((option) => ({
    ...controlProps(meta),
    key: `${meta.key}-${option}`,
    id: `${meta.id}-${option}`,
    type: "radio" as const,
    value: option,
    defaultChecked: meta.initialValue === option,
  }));
}
