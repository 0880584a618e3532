import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { AccountCard, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { HONEYPOT_REFUSAL, honeypotFilled } from "~/components/account/honeypot";
import { loginSchema, SECRET_FIELDS } from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { HumanCheck } from "~/components/human-check";
import { type HumanCheckChallenge, readHumanCheckChallenge, signInWithPassword } from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { completeSignIn, readDeviceToken, requireAnonymous } from "~/lib/session.server";
import { useSchemaForm } from "~/lib/use-schema-form";
import { pageMeta } from "~/components/legal/page-meta";

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

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
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
  return completeSignIn({
    request,
    context,
    token: answer.payload.token,
    deviceToken: answer.payload.deviceToken,
    redirectTo,
    message: "Welcome back",
  });
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useSchemaForm(loginSchema, {
    id: "login",
    lastResult: actionData?.result,
  });
  const signupHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup";

  return (
    <AccountCard title="Sign In">
      {redirectTo && <p className="mb-4 text-sm text-slate-600">Please sign in to continue.</p>}
      <Form method="post" {...getFormProps(form)} className="relative flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField label="Username or email" meta={fields.username} type="text" autoComplete="username" />
        <TextField label="Password" meta={fields.password} type="password" autoComplete="current-password" />
        {actionData?.humanCheck && <HumanCheck challenge={actionData.humanCheck.challenge} />}
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
