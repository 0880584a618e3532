import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import {
  changeEmailSchema,
  changePasswordSchema,
  changeUsernameSchema,
  deleteAccountFormSchema,
  SECRET_FIELDS,
} from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { changeEmail, changePassword, changeUsername } from "~/lib/accounts.server";
import { replyFromApi } from "~/lib/api-reply.server";
import type { ApiFailure } from "~/lib/api.server";
import { deleteMyAccount } from "~/lib/privacy.server";
import {
  clearedSessionCookies,
  headersWithCookies,
  requireProfile,
  requireUser,
  sessionCookies,
} from "~/lib/session.server";
import { formatUsd } from "~/lib/money";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/account/schemas.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import type { z } from "zod";

export const meta: MetaFunction = () => [{ title: "Settings | Store" }];

const SETTINGS_PAGE = "/settings";
const CURRENT_PASSWORD_HINT =
  "Not needed within 10 minutes of signing in, or if your account was made at checkout and you never set a password.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const profile = await requireProfile(request, context);
  return { username: profile.username, email: profile.email, balance: profile.balance };
}

type Intent = "username" | "email" | "password" | "delete";

const schemaByIntent = {
  username: changeUsernameSchema,
  email: changeEmailSchema,
  password: changePasswordSchema,
  delete: deleteAccountFormSchema,
};

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const formData = await request.formData();
  const requested = formData.get("intent");
  const intent: Intent =
    requested === "email" || requested === "password" || requested === "delete" ? requested : "username";
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
  if (command.intent === "delete") {
    const answer = await deleteMyAccount(context, request, { password: command.password });
    if (!answer.ok) return apiRefusal(answer, ["password"]);
    // The account is gone and its sessions with it: this browser forgets the token too.
    return redirectWithSuccess(context, "/", answer.message, {
      headers: headersWithCookies(await clearedSessionCookies(context)),
    });
  }
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

/** A plain link: the browser saves the file, with or without JavaScript. */
function DownloadData() {
  return (
    <a
      href="/settings/export"
      download
      className="self-start rounded-md border border-slate-300 px-4 py-2 font-semibold text-brand-700 hover:bg-slate-50"
    >
      Download my data
    </a>
  );
}

function DeleteAccountForm({ balance }: { balance: number }) {
  const [form, fields] = useServerForm<z.input<typeof deleteAccountFormSchema>>(FORM_CONSTRAINTS.deleteAccount, {
    id: "settings-delete",
    lastResult: useLastResult("delete"),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <p className="text-sm font-semibold text-red-800" data-testid="forfeit-warning">
        {balance > 0
          ? `Your remaining balance of ${formatUsd(balance)} is forfeited: it is not paid out.`
          : "Any balance left on the account is forfeited: it is not paid out."}
      </p>
      <TextField label="Your password" meta={fields.password} type="password" autoComplete="current-password" />
      <SubmitButton intent="delete" pendingText="Deleting…">
        Delete my account
      </SubmitButton>
    </Form>
  );
}

export default function SettingsPage() {
  const { username, email, balance } = useLoaderData<typeof loader>();
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
      <SettingsCard
        id="settings-data-title"
        title="Your data"
        description="Everything we hold about you: profile, orders and their credentials, tickets, requests, feedback, balance, coupons, sessions and devices, as a JSON file."
      >
        <DownloadData />
      </SettingsCard>
      <SettingsCard
        id="settings-delete-title"
        title="Delete my account"
        description="Signs you out everywhere and removes your name, email and password. Orders stay in the store's books without them; your reviews and ticket messages stay, from 'Deleted customer'. This cannot be undone."
      >
        <DeleteAccountForm balance={balance} />
      </SettingsCard>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
