import { type SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { AccountCard, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { loginSchema, SECRET_FIELDS, twoFactorSchema } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { HumanCheck } from "~/components/human-check";
import {
  freshHumanCheck,
  type HumanCheckChallenge,
  signInWithPassword,
  signInWithSecondFactor,
} from "~/lib/accounts.server";
import { formAction, replyToForm } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { completeSignIn, readDeviceToken, anonymousPageLoader } from "~/lib/session.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import { pageMeta } from "~/components/legal/page-meta";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Sign In | Store",
    description:
      "Sign in to your store account to see your orders and balance, open support tickets and request replacements.",
  });

export const loader = anonymousPageLoader;

const LOGIN_FORM = "login";
const CODE_FORM = "login-code";

/** The code step's reply carries the sign-in's challenge, so the step can post it back. */
type CodeStepExtra = { challenge: string };
/** After many failed sign-ins on the account, the API asks for the human check with the next try. */
type LoginExtra = { humanCheck: HumanCheckChallenge | null } | undefined;

/** The code step of a staff sign-in: a wrong code asks again, a spent challenge starts over. */
async function secondFactor(request: Request, context: ActionFunctionArgs["context"], formData: FormData) {
  const challenge = String(formData.get("challenge") ?? "");
  return formAction(formData, {
    form: CODE_FORM,
    schema: twoFactorSchema,
    fields: ["code"],
    extra: (): CodeStepExtra => ({ challenge }),
    startOver: { form: LOGIN_FORM, when: (refusal) => refusal.status !== 400 },
    call: async ({ redirectTo: _, ...input }) =>
      signInWithSecondFactor(context, { ...input, deviceToken: await readDeviceToken(request, context) }),
    done: ({ payload }, { redirectTo }) => signedIn(request, context, payload, redirectTo),
  });
}

function signedIn(
  request: Request,
  context: ActionFunctionArgs["context"],
  { token, deviceToken }: { token: string; deviceToken?: string },
  redirectTo: string | undefined,
) {
  return completeSignIn({ request, context, token, deviceToken, redirectTo, message: "Welcome back" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") === "two-factor") return secondFactor(request, context, formData);
  return formAction(formData, {
    form: LOGIN_FORM,
    schema: loginSchema,
    fields: ["username", "password"],
    hideFields: SECRET_FIELDS,
    honeypot: true,
    extra: async (refusal): Promise<LoginExtra> =>
      refusal?.humanCheckRequired ? { humanCheck: await freshHumanCheck(context) } : undefined,
    call: async ({ redirectTo: _, ...credentials }) =>
      signInWithPassword(context, { ...credentials, deviceToken: await readDeviceToken(request, context) }),
    done: ({ payload }, { redirectTo }) =>
      "twoFactorRequired" in payload
        ? // The password was right: the code step starts, with nothing to correct yet.
          replyToForm<CodeStepExtra>(CODE_FORM, {}, 200, () => ({ challenge: payload.challenge }))
        : signedIn(request, context, payload, redirectTo),
  });
}

function CodeStep({
  challenge,
  redirectTo,
  lastResult,
}: {
  challenge: string;
  redirectTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useServerForm<z.input<typeof twoFactorSchema>>(FORM_CONSTRAINTS.twoFactor, {
    id: CODE_FORM,
    lastResult,
  });
  return (
    <AccountCard title="Two-factor sign-in" next={{ to: "/login", label: "Start again" }}>
      <p className="mb-4 text-sm text-slate-600">
        Enter the 6-digit code your authenticator app shows for this store, or one of your recovery codes.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="challenge" value={challenge} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField label="Code" meta={fields.code} type="text" autoComplete="one-time-code" />
        <SubmitButton intent="two-factor" pendingText="Checking…">
          Continue
        </SubmitButton>
      </Form>
    </AccountCard>
  );
}

export default function LoginPage() {
  const refused = useFormReply<LoginExtra>(LOGIN_FORM);
  const codeStep = useFormReply<CodeStepExtra>(CODE_FORM);
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useServerForm<z.input<typeof loginSchema>>(FORM_CONSTRAINTS.login, {
    id: LOGIN_FORM,
    lastResult: refused?.result,
  });
  const signupHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup";
  if (codeStep?.extra) {
    return <CodeStep challenge={codeStep.extra.challenge} redirectTo={redirectTo} lastResult={codeStep.result} />;
  }

  return (
    <AccountCard title="Sign In" next={{ lead: "New here?", to: signupHref, label: "Create Account" }}>
      {redirectTo && <p className="mb-4 text-sm text-slate-600">Please sign in to continue.</p>}
      <Form method="post" {...getFormProps(form)} className="group relative flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField label="Username or email" meta={fields.username} type="text" autoComplete="username" />
        <TextField label="Password" meta={fields.password} type="password" autoComplete="current-password" />
        {refused?.extra && (
          <>
            <HumanCheck challenge={refused.extra.humanCheck} reason="This account has had many failed sign-ins." />
            {/* The password never comes back in a page (SECRET_FIELDS): while its box is empty, say so, or the next
                send only gets the browser's "Please fill out this field" (issue 38). CSS, so it holds without JS. */}
            <p className="hidden text-sm font-semibold group-has-[[name=password]:invalid]:block">
              Type your password again, then send the form.
            </p>
          </>
        )}
        <Link to="/forgot" className="-mt-2 mb-2 self-end text-sm font-medium text-brand-700 underline">
          Forgot password?
        </Link>
        <SubmitButton pendingText="Signing in…">Sign In</SubmitButton>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
