import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useSearchParams } from "@remix-run/react";
import { AccountCard, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { HoneypotField } from "~/components/account/honeypot";
import { forgotSchema } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requestResetCode } from "~/lib/accounts.server";
import { formAction } from "~/lib/form-action.server";
import { anonymousPageLoader } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import { pageMeta } from "~/components/legal/page-meta";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Forgot Password | Store",
    description: "Forgot your password? Enter your account's email and we send you a 6-digit code to choose a new one.",
  });

export const loader = anonymousPageLoader;

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(await request.formData(), {
    form: "forgot",
    schema: forgotSchema,
    honeypot: true,
    call: ({ email }) => requestResetCode(context, email),
    // The same answer whether or not the email has an account.
    done: (answer, { email }) =>
      redirectWithSuccess(context, `/reset?${new URLSearchParams({ email })}`, answer.message),
  });
}

export default function ForgotPage() {
  // Sign-up's "set a password by mailed code" link brings the email along.
  const [searchParams] = useSearchParams();
  const [form, fields] = useRepliedServerForm<z.input<typeof forgotSchema>>(FORM_CONSTRAINTS.forgot, "forgot", {
    defaultValue: { email: searchParams.get("email") ?? "" },
  });

  return (
    <AccountCard title="Forgot Password" next={{ lead: "Remembered it?", to: "/login", label: "Sign In" }}>
      <p className="mb-4 text-sm text-slate-600">
        Enter the email address of your account. We will send you a 6-digit code to set a new password.
      </p>
      <Form method="post" {...getFormProps(form)} className="relative flex flex-col gap-2">
        <FormErrors form={form} />
        <HoneypotField />
        <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
        <SubmitButton pendingText="Sending…">Send Code</SubmitButton>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
