import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TextField } from "~/components/account/form-fields";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { GuardedFormPage } from "~/components/guarded-form-page";
import { pageMeta } from "~/components/legal/page-meta";
import { redeemKeySchema } from "~/components/redeem-key-schema";
import { freshHumanCheck } from "~/lib/accounts.server";
import { formAction } from "~/lib/form-action.server";
import { redeemKey } from "~/lib/orders.server";
import { getCurrentUser } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/redeem-key-schema.constraints";
import { useRepliedServerForm } from "~/lib/form-reply";
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
  const [form, fields] = useRepliedServerForm<z.input<typeof redeemKeySchema>>(
    FORM_CONSTRAINTS.redeemKey,
    "redeem-key",
    { defaultValue: { email: loaded.email } },
  );
  return (
    <GuardedFormPage
      title="Redeem Key"
      intro={
        <p className="mt-2 text-slate-600">
          Enter the key you received and your email. Your order is delivered at once, and we send its link to that email
          (an account is made for it if it has none).
        </p>
      }
      form={form}
      humanCheck={loaded.humanCheck}
      submit="Redeem Key"
      pendingText="Redeeming…"
    >
      <TextField label="Email Address" meta={fields.email} type="email" autoComplete="email" inputMode="email" />
      <TextField
        label="Key"
        meta={fields.key}
        type="text"
        autoComplete="off"
        placeholder="XXXXX-XXXXX-XXXXX-XXXXX"
        hint="Letters and digits in groups of five; capitals and dashes do not matter."
      />
    </GuardedFormPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
