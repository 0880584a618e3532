import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { HumanCheck } from "~/components/human-check";
import { pageMeta } from "~/components/legal/page-meta";
import { redeemKeySchema } from "~/components/redeem-key-schema";
import { freshHumanCheck, type HumanCheckChallenge } from "~/lib/accounts.server";
import { formAction } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { redeemKey } from "~/lib/orders.server";
import { getCurrentUser } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/redeem-key-schema.constraints";
import { getFormProps, useServerForm } from "~/lib/server-form";
import type { z } from "zod";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Redeem Key | Store",
    description: "Redeem a key for a subscription: enter your email and the key, and the order is delivered at once.",
  });

// The form carries a single-use human-check token: a page shared from the page cache would hand two visitors
// the same one, and the second would be refused.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [humanCheck, user] = await Promise.all([freshHumanCheck(context), getCurrentUser(request, context)]);
  return { humanCheck, email: user?.email ?? "" };
}

/** The order is made for the account with this email; the page goes on to it (spec section 2). */
export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(await request.formData(), {
    form: "redeem-key",
    schema: redeemKeySchema,
    fields: ["email", "key"],
    honeypot: true,
    // A refused post spent its human-check answer: the form gets a new challenge with the errors.
    extra: () => freshHumanCheck(context),
    call: ({ email, key, [HUMAN_CHECK_FIELD]: humanCheck }) => redeemKey(context, { email, key, humanCheck }),
    done: (answer) =>
      redirectWithSuccess(
        context,
        `/find-order?${new URLSearchParams({ id: answer.payload.orderId })}`,
        answer.message,
      ),
  });
}

export default function RedeemKeyPage() {
  const loaded = useLoaderData<typeof loader>();
  const refused = useFormReply<HumanCheckChallenge | null>("redeem-key");
  const [form, fields] = useServerForm<z.input<typeof redeemKeySchema>>(FORM_CONSTRAINTS.redeemKey, {
    id: "redeem-key",
    lastResult: refused?.result,
    defaultValue: { email: loaded.email },
  });
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-ink">Redeem Key</h1>
        <p className="mt-2 text-slate-600">
          Enter the key you received and your email. Your order is delivered at once, and we send its link to that email
          (an account is made for it if it has none).
        </p>
      </header>
      <Form
        method="post"
        {...getFormProps(form)}
        className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <FormErrors form={form} />
        <TextField label="Email Address" meta={fields.email} type="email" autoComplete="email" inputMode="email" />
        <TextField
          label="Key"
          meta={fields.key}
          type="text"
          autoComplete="off"
          placeholder="XXXXX-XXXXX-XXXXX-XXXXX"
          hint="Letters and digits in groups of five; capitals and dashes do not matter."
        />
        <HumanCheck challenge={refused?.extra ?? loaded.humanCheck} />
        <div>
          <SubmitButton pendingText="Redeeming…">Redeem Key</SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
