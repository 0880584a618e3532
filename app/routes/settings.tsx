import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import {
  changeEmailSchema,
  changePasswordSchema,
  changeUsernameSchema,
  SECRET_FIELDS,
} from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { changeEmail, changePassword, changeUsername } from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import type { ApiFailure } from "~/lib/api.server";
import { headersWithCookies, requireUser, sessionCookies } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import type { z } from "zod";

export const meta: MetaFunction = () => [{ title: "Settings | Store" }];

const SETTINGS_PAGE = "/settings";
const CURRENT_PASSWORD_HINT =
  "Not needed within 10 minutes of signing in, or if your account was made at checkout and you never set a password.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { username: user.username, email: user.email };
}

type Intent = "username" | "email" | "password";

const schemaByIntent = { username: changeUsernameSchema, email: changeEmailSchema, password: changePasswordSchema };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const formData = await request.formData();
  const requested = formData.get("intent");
  const intent: Intent = requested === "email" || requested === "password" ? requested : "username";
  const submission = parseWithZod(formData, { schema: schemaByIntent[intent] });

  // A refused form comes back to its own card only; the other two stay as they were.
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
  }
  const apiRefusal = (answer: ApiFailure, fields: string[]) => {
    const { result, status } = replyFromApi(submission, answer, { fields, hideFields: SECRET_FIELDS });
    return data({ intent, result }, { status });
  };

  const command = submission.value;
  if (command.intent === "username") {
    const answer = await changeUsername(context, request, { username: command.username });
    if (!answer.ok) return apiRefusal(answer, ["username"]);
    return redirectWithSuccess(context, SETTINGS_PAGE, answer.message);
  }
  if (command.intent === "email") {
    const answer = await changeEmail(context, request, {
      email: command.email,
      currentPassword: command.currentPassword,
    });
    if (!answer.ok) return apiRefusal(answer, ["email", "currentPassword"]);
    return redirectWithSuccess(context, SETTINGS_PAGE, answer.message);
  }
  const answer = await changePassword(context, request, {
    password: command.password,
    password2: command.password2,
    currentPassword: command.currentPassword,
  });
  if (!answer.ok) return apiRefusal(answer, ["password", "password2", "currentPassword"]);
  // The change ended every session of the account, this one too: keep this browser signed in with the new token.
  return redirectWithSuccess(context, SETTINGS_PAGE, answer.message, {
    headers: headersWithCookies(await sessionCookies(context, answer.payload.token)),
  });
}

function SettingsCard({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <p className="mb-4 text-sm text-slate-600">{description}</p>
      {children}
    </section>
  );
}

function useLastResult(intent: Intent) {
  const actionData = useActionData<typeof action>();
  return actionData?.intent === intent ? actionData.result : undefined;
}

function UsernameForm({ username }: { username: string }) {
  const [form, fields] = useServerForm<z.input<typeof changeUsernameSchema>>(FORM_CONSTRAINTS.changeUsername, {
    id: "settings-username",
    lastResult: useLastResult("username"),
    defaultValue: { username },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <TextField label="Username" meta={fields.username} type="text" autoComplete="username" />
      <SubmitButton intent="username" pendingText="Saving…">
        Change Username
      </SubmitButton>
    </Form>
  );
}

function EmailForm({ email }: { email: string }) {
  const [form, fields] = useServerForm<z.input<typeof changeEmailSchema>>(FORM_CONSTRAINTS.changeEmail, {
    id: "settings-email",
    lastResult: useLastResult("email"),
    defaultValue: { email },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
      <CurrentPasswordField meta={fields.currentPassword} />
      <SubmitButton intent="email" pendingText="Saving…">
        Change Email
      </SubmitButton>
    </Form>
  );
}

/**
 * Email and password changes re-check the current password, or a sign-in within 10 minutes (ADR 035): an
 * old stolen session alone cannot take the account. The API says which is missing, next to this field.
 */
function CurrentPasswordField({ meta }: { meta: Parameters<typeof TextField>[0]["meta"] }) {
  return (
    <TextField
      label="Current password"
      meta={meta}
      type="password"
      autoComplete="current-password"
      hint={CURRENT_PASSWORD_HINT}
    />
  );
}

function PasswordForm() {
  const [form, fields] = useServerForm<z.input<typeof changePasswordSchema>>(FORM_CONSTRAINTS.changePassword, {
    id: "settings-password",
    lastResult: useLastResult("password"),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <CurrentPasswordField meta={fields.currentPassword} />
      <TextField
        label="New password"
        meta={fields.password}
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters; not a common password. You stay signed in here; other devices are signed out."
      />
      <TextField label="Confirm new password" meta={fields.password2} type="password" autoComplete="new-password" />
      <SubmitButton intent="password" pendingText="Saving…">
        Change Password
      </SubmitButton>
    </Form>
  );
}

export default function SettingsPage() {
  const { username, email } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Settings</h1>
      <SettingsCard
        id="settings-username-title"
        title="Username"
        description="The name you sign in with, besides your email."
      >
        <UsernameForm key={username} username={username} />
      </SettingsCard>
      <SettingsCard
        id="settings-email-title"
        title="Email"
        description="Order mails and reset codes go here. We tell your old address about the change."
      >
        <EmailForm key={email} email={email} />
      </SettingsCard>
      <SettingsCard id="settings-password-title" title="Password" description="Choose a new password for your account.">
        <PasswordForm />
      </SettingsCard>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
