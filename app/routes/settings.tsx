import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, NewPasswordFields, SubmitButton, TextField } from "~/components/account/form-fields";
import {
  changeEmailSchema,
  changePasswordSchema,
  changeUsernameSchema,
  deleteAccountFormSchema,
  SECRET_FIELDS,
} from "~/components/account/schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { changeEmail, changePassword, changeUsername } from "~/lib/accounts.server";
import { formAction, intentOf } from "~/lib/form-action.server";
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
import { type FormMeta, getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import type { z } from "zod";

export const meta: MetaFunction = () => [{ title: "Settings | Store" }];

const SETTINGS_PAGE = "/settings";
const CURRENT_PASSWORD_HINT =
  "Not needed within 10 minutes of signing in, or if your account was made at checkout and you never set a password.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const profile = await requireProfile(request, context);
  return { username: profile.username, email: profile.email, balance: profile.balance };
}

const INTENTS = ["username", "email", "password", "delete"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const formData = await request.formData();
  const backToSettings = (answer: { message: string }, init?: ResponseInit) =>
    redirectWithSuccess(context, SETTINGS_PAGE, answer.message, init);
  // Each card is its own form: a refusal comes back to that card only, the others stay as they were.
  switch (intentOf(formData, INTENTS)) {
    case "username":
      return formAction(formData, {
        form: "settings-username",
        schema: changeUsernameSchema,
        fields: ["username"],
        call: ({ username }) => changeUsername(context, request, { username }),
        done: (answer) => backToSettings(answer),
      });
    case "email":
      return formAction(formData, {
        form: "settings-email",
        schema: changeEmailSchema,
        fields: ["email", "currentPassword"],
        hideFields: SECRET_FIELDS,
        call: ({ email, currentPassword }) => changeEmail(context, request, { email, currentPassword }),
        done: (answer) => backToSettings(answer),
      });
    case "password":
      return formAction(formData, {
        form: "settings-password",
        schema: changePasswordSchema,
        fields: ["password", "password2", "currentPassword"],
        hideFields: SECRET_FIELDS,
        call: ({ password, password2, currentPassword }) =>
          changePassword(context, request, { password, password2, currentPassword }),
        // The change ended every session of the account, this one too: keep this browser signed in with the new token.
        done: async (answer) =>
          backToSettings(answer, { headers: headersWithCookies(await sessionCookies(context, answer.payload.token)) }),
      });
    case "delete":
      return formAction(formData, {
        form: "settings-delete",
        schema: deleteAccountFormSchema,
        fields: ["password"],
        hideFields: SECRET_FIELDS,
        call: ({ password }) => deleteMyAccount(context, request, { password }),
        // The account is gone and its sessions with it: this browser forgets the token too.
        done: async (answer) =>
          redirectWithSuccess(context, "/", answer.message, {
            headers: headersWithCookies(await clearedSessionCookies(context)),
          }),
      });
  }
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

/** A settings form: its errors above its fields, its button below; the button's intent tells the action which. */
function SettingsForm({
  form,
  intent,
  submit,
  pendingText = "Saving…",
  children,
}: {
  form: FormMeta;
  intent: string;
  submit: string;
  pendingText?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      {children}
      <SubmitButton intent={intent} pendingText={pendingText}>
        {submit}
      </SubmitButton>
    </Form>
  );
}

function UsernameForm({ username }: { username: string }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof changeUsernameSchema>>(
    FORM_CONSTRAINTS.changeUsername,
    "settings-username",
    { defaultValue: { username } },
  );
  return (
    <SettingsForm form={form} intent="username" submit="Change Username">
      <TextField label="Username" meta={fields.username} type="text" autoComplete="username" />
    </SettingsForm>
  );
}

function EmailForm({ email }: { email: string }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof changeEmailSchema>>(
    FORM_CONSTRAINTS.changeEmail,
    "settings-email",
    { defaultValue: { email } },
  );
  return (
    <SettingsForm form={form} intent="email" submit="Change Email">
      <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
      <CurrentPasswordField meta={fields.currentPassword} />
    </SettingsForm>
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
  const [form, fields] = useRepliedServerForm<z.input<typeof changePasswordSchema>>(
    FORM_CONSTRAINTS.changePassword,
    "settings-password",
  );
  return (
    <SettingsForm form={form} intent="password" submit="Change Password">
      <CurrentPasswordField meta={fields.currentPassword} />
      <NewPasswordFields
        password={fields.password}
        password2={fields.password2}
        hint="At least 8 characters; not a common password. You stay signed in here; other devices are signed out."
      />
    </SettingsForm>
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
  const [form, fields] = useRepliedServerForm<z.input<typeof deleteAccountFormSchema>>(
    FORM_CONSTRAINTS.deleteAccount,
    "settings-delete",
  );
  return (
    <SettingsForm form={form} intent="delete" submit="Delete my account" pendingText="Deleting…">
      <p className="text-sm font-semibold text-red-800" data-testid="forfeit-warning">
        {balance > 0
          ? `Your remaining balance of ${formatUsd(balance)} is forfeited: it is not paid out.`
          : "Any balance left on the account is forfeited: it is not paid out."}
      </p>
      <TextField label="Your password" meta={fields.password} type="password" autoComplete="current-password" />
    </SettingsForm>
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
