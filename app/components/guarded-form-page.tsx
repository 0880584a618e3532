import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import { HumanCheck } from "~/components/human-check";
import type { HumanCheckChallenge } from "~/lib/accounts.server";
import { useFormReply } from "~/lib/form-reply";
import { type FormMeta, getFormProps } from "~/lib/server-form";

/**
 * A public form guarded by the human check (contact, redeem key): the title and intro, then the form in a card
 * with its errors, its fields, the check and the button. A refused post brings a new challenge (the reply's
 * extra, ADR 049): the one the page loaded may have been spent.
 */
export function GuardedFormPage({
  title,
  intro,
  form,
  humanCheck,
  submit,
  pendingText,
  children,
  after,
}: {
  title: string;
  intro: ReactNode;
  form: FormMeta;
  /** The challenge the page loaded. */
  humanCheck: HumanCheckChallenge | null;
  submit: string;
  pendingText: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  const refused = useFormReply<HumanCheckChallenge | null>(form.id);
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-ink">{title}</h1>
        {intro}
      </header>
      <Form
        method="post"
        {...getFormProps(form)}
        className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <FormErrors form={form} />
        {children}
        <HumanCheck challenge={refused?.extra ?? humanCheck} />
        <div>
          <SubmitButton pendingText={pendingText}>{submit}</SubmitButton>
        </div>
      </Form>
      {after}
    </div>
  );
}
