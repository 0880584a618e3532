import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { AccountCard, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { HONEYPOT_REFUSAL, honeypotFilled } from "~/components/account/honeypot";
import { loginSchema, SECRET_FIELDS, twoFactorSchema } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { HumanCheck } from "~/components/human-check";
import {
  type HumanCheckChallenge,
  readHumanCheckChallenge,
  signInWithPassword,
  signInWithSecondFactor,
} from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { completeSignIn, readDeviceToken, requireAnonymous } from "~/lib/session.server";
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

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

/** A fresh challenge for the next try; null when it could not be loaded (the page says so). */
async function nextHumanCheck(context: ActionFunctionArgs["context"]): Promise<HumanCheckChallenge | null> {
  const challenge = await readHumanCheckChallenge(context);
  return challenge.ok ? challenge.payload : null;
}

/** The code step of a staff sign-in: a wrong code asks again, a spent challenge starts over. */
async function secondFactor(request: Request, context: ActionFunctionArgs["context"], formData: FormData) {
  const submission = parseWithZod(formData, { schema: twoFactorSchema });
  if (submission.status !== "success") {
    const challenge = String(formData.get("challenge") ?? "");
    return data(
      { result: undefined, humanCheck: null, codeStep: { challenge, result: submission.reply() } },
      { status: 400 },
    );
  }
  const { redirectTo, ...input } = submission.value;
  const answer = await signInWithSecondFactor(context, {
    ...input,
    deviceToken: await readDeviceToken(request, context),
  });
  if (!answer.ok) {
    if (answer.status === 400) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["code"] });
      return data(
        { result: undefined, humanCheck: null, codeStep: { challenge: input.challenge, result } },
        { status },
      );
    }
    const result = submission.reply({ formErrors: [answer.message], hideFields: ["code", "challenge"] });
    return data({ result, humanCheck: null }, { status: answer.status });
  }
  return completeSignIn({
    request,
    context,
    token: answer.payload.token,
    deviceToken: answer.payload.deviceToken,
    redirectTo,
    message: "Welcome back",
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") === "two-factor") return secondFactor(request, context, formData);
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (honeypotFilled(formData)) {
    return data(
      { result: submission.reply({ formErrors: [HONEYPOT_REFUSAL], hideFields: SECRET_FIELDS }), humanCheck: null },
      { status: 400 },
    );
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), humanCheck: null }, { status: 400 });
  }
  const { redirectTo, ...credentials } = submission.value;
  const answer = await signInWithPassword(context, {
    ...credentials,
    deviceToken: await readDeviceToken(request, context),
  });
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, {
      fields: ["username", "password"],
      hideFields: SECRET_FIELDS,
    });
    // After many failed sign-ins on the account, the API asks for the human check with the next try.
    const humanCheck = answer.humanCheckRequired ? { challenge: await nextHumanCheck(context) } : null;
    return data({ result, humanCheck }, { status });
  }
  if ("twoFactorRequired" in answer.payload) {
    return data({ result: undefined, humanCheck: null, codeStep: { challenge: answer.payload.challenge } });
  }
  return completeSignIn({
    request,
    context,
    token: answer.payload.token,
    deviceToken: answer.payload.deviceToken,
    redirectTo,
    message: "Welcome back",
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
    id: "login-code",
    lastResult,
  });
  return (
    <AccountCard title="Two-factor sign-in">
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
      <p className="mt-6 text-sm text-slate-600">
        <Link to="/login" className="font-semibold text-brand-700 underline">
          Start again
        </Link>
      </p>
    </AccountCard>
  );
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useServerForm<z.input<typeof loginSchema>>(FORM_CONSTRAINTS.login, {
    id: "login",
    lastResult: actionData?.result,
  });
  const signupHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup";
  const codeStep = actionData && "codeStep" in actionData ? actionData.codeStep : undefined;
  if (codeStep) {
    return (
      <CodeStep
        challenge={codeStep.challenge}
        redirectTo={redirectTo}
        lastResult={"result" in codeStep ? codeStep.result : undefined}
      />
    );
  }

  return (
    <AccountCard title="Sign In">
      {redirectTo && <p className="mb-4 text-sm text-slate-600">Please sign in to continue.</p>}
      <Form method="post" {...getFormProps(form)} className="relative flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField label="Username or email" meta={fields.username} type="text" autoComplete="username" />
        <TextField label="Password" meta={fields.password} type="password" autoComplete="current-password" />
        {actionData?.humanCheck && (
          <HumanCheck challenge={actionData.humanCheck.challenge} reason="This account has had many failed sign-ins." />
        )}
        <Link to="/forgot" className="-mt-2 mb-2 self-end text-sm font-medium text-brand-700 underline">
          Forgot password?
        </Link>
        <SubmitButton pendingText="Signing in…">Sign In</SubmitButton>
      </Form>
      <p className="mt-6 text-sm text-slate-600">
        New here?{" "}
        <Link to={signupHref} className="font-semibold text-brand-700 underline">
          Create Account
        </Link>
      </p>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
