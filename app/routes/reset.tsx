import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import {
  AccountCard,
  ErrorList,
  FormErrors,
  NewPasswordFields,
  SubmitButton,
  TextField,
} from "~/components/account/form-fields";
import { resetSchema, SECRET_FIELDS } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { resetPasswordWithCode } from "~/lib/accounts.server";
import { formAction } from "~/lib/form-action.server";
import { completeSignIn, requireAnonymous } from "~/lib/session.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import { pageMeta } from "~/components/legal/page-meta";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Reset Password | Store",
    description: "Enter the 6-digit code from our email and choose a new password for your store account.",
  });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const email = new URL(request.url).searchParams.get("email")?.trim();
  if (!email) throw redirect("/forgot");
  return { email };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(await request.formData(), {
    form: "reset",
    schema: resetSchema,
    fields: ["otp", "password", "password2"],
    hideFields: SECRET_FIELDS,
    call: (reset) => resetPasswordWithCode(context, reset),
    done: (answer) =>
      completeSignIn({
        request,
        context,
        token: answer.payload.token,
        redirectTo: undefined,
        message: "Your password has been reset",
      }),
  });
}

export default function ResetPage() {
  const { email } = useLoaderData<typeof loader>();
  const [form, fields] = useRepliedServerForm<z.input<typeof resetSchema>>(FORM_CONSTRAINTS.reset, "reset");

  return (
    <AccountCard title="Reset Password" next={{ lead: "No code?", to: "/forgot", label: "Send a new one" }}>
      <p className="mb-4 text-sm text-slate-600">
        If <strong className="break-all">{email}</strong> has an account, we have sent it a 6-digit code. It works for
        10 minutes; check your spam folder too.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name={fields.email.name} value={email} />
        <ErrorList id={fields.email.errorId} errors={fields.email.errors} />
        <TextField
          label="Code from the email"
          meta={fields.otp}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
        />
        <NewPasswordFields password={fields.password} password2={fields.password2} />
        <SubmitButton pendingText="Resetting…">Reset Password</SubmitButton>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
