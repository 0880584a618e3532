import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { AccountCard, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { HONEYPOT_REFUSAL, HoneypotField, honeypotFilled } from "~/components/account/honeypot";
import { forgotSchema } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requestResetCode } from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { requireAnonymous } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import { pageMeta } from "~/components/legal/page-meta";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Forgot Password | Store",
    description: "Forgot your password? Enter your account's email and we send you a 6-digit code to choose a new one.",
  });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: forgotSchema });
  if (honeypotFilled(formData)) {
    return data({ result: submission.reply({ formErrors: [HONEYPOT_REFUSAL] }) }, { status: 400 });
  }
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { email } = submission.value;
  const answer = await requestResetCode(context, email);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["email"] });
    return data({ result }, { status });
  }
  // The same answer whether or not the email has an account.
  return redirectWithSuccess(context, `/reset?${new URLSearchParams({ email })}`, answer.message);
}

export default function ForgotPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useServerForm<z.input<typeof forgotSchema>>(FORM_CONSTRAINTS.forgot, {
    id: "forgot",
    lastResult: actionData?.result,
  });

  return (
    <AccountCard title="Forgot Password">
      <p className="mb-4 text-sm text-slate-600">
        Enter the email address of your account. We will send you a 6-digit code to set a new password.
      </p>
      <Form method="post" {...getFormProps(form)} className="relative flex flex-col gap-2">
        <FormErrors form={form} />
        <HoneypotField />
        <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
        <SubmitButton pendingText="Sending…">Send Code</SubmitButton>
      </Form>
      <p className="mt-6 text-sm text-slate-600">
        Remembered it?{" "}
        <Link to="/login" className="font-semibold text-brand-700 underline">
          Sign In
        </Link>
      </p>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
