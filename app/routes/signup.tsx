import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { EMAIL_TAKEN } from "../../contract/browser/account";
import { AccountCard, FormErrors, NewPasswordFields, SubmitButton, TextField } from "~/components/account/form-fields";
import { HoneypotField } from "~/components/account/honeypot";
import { SECRET_FIELDS, signupSchema } from "~/components/account/schemas";
import { WhyChoose } from "~/components/account/why-choose";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { registerAccount } from "~/lib/accounts.server";
import { formAction } from "~/lib/form-action.server";
import { completeSignIn, anonymousPageLoader } from "~/lib/session.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import { pageMeta } from "~/components/legal/page-meta";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Create Account | Store",
    description:
      "Create a free store account to keep every order in one place, top up a balance and get help through support tickets.",
  });

export const loader = anonymousPageLoader;

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(await request.formData(), {
    form: "signup",
    schema: signupSchema,
    hideFields: SECRET_FIELDS,
    honeypot: true,
    call: ({ redirectTo: _, ...account }) => registerAccount(context, account),
    done: (answer, { redirectTo }) =>
      completeSignIn({
        request,
        context,
        token: answer.payload.token,
        redirectTo,
        message: "Your account has been created",
      }),
  });
}

export default function SignupPage() {
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useRepliedServerForm<z.input<typeof signupSchema>>(FORM_CONSTRAINTS.signup, "signup");
  const loginHref = redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login";
  // A guest buyer's account exists without a password they know: the way to one is a mailed code (issue 38).
  const emailTaken = form.errors?.includes(EMAIL_TAKEN) ?? false;
  const setPasswordHref = `/forgot?${new URLSearchParams({ email: fields.email.initialValue ?? "" })}`;

  return (
    <AccountCard
      title="Create Account"
      aside={<WhyChoose />}
      next={{ lead: "Already have an account?", to: loginHref, label: "Sign In" }}
    >
      <Form method="post" {...getFormProps(form)} className="relative flex flex-col gap-2">
        <FormErrors form={form} />
        {emailTaken && (
          <p className="text-sm">
            <Link to={setPasswordHref} className="font-semibold text-brand-700 underline">
              Set a password by mailed code
            </Link>{" "}
            or{" "}
            <Link to={loginHref} className="font-semibold text-brand-700 underline">
              sign in
            </Link>
            .
          </p>
        )}
        <HoneypotField />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField label="Username" meta={fields.username} type="text" autoComplete="username" />
        <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
        <NewPasswordFields
          password={fields.password}
          password2={fields.password2}
          labels={["Password", "Confirm password"]}
        />
        <SubmitButton pendingText="Creating your account…">Create Account</SubmitButton>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
