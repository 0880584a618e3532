import { type SubmissionResult, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminHeading, secondaryButtonClass } from "~/components/admin/admin-ui";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import {
  SECURITY_PAGE,
  disableTwoFactor,
  enableTwoFactor,
  readTwoFactor,
  requireStaff,
  setTwoFactorPolicy,
  startTwoFactorSetup,
} from "~/lib/admin.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Security | Back office" }];

const codeSchema = z.object({
  code: z
    .string({ required_error: "Enter the code from your app", invalid_type_error: "Enter the code from your app" })
    .trim()
    .min(6, "Enter the 6-digit code from your app")
    .max(40, "Enter the 6-digit code from your app"),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return {
    status: await readTwoFactor(context, request),
    isOwner: me.areas.includes("staff"),
    mustEnrol: me.twoFactorEnrolmentRequired,
  };
}

type ActionAnswer =
  | { step: "scan"; qrDataUri: string; secret: string; result?: SubmissionResult<string[]> }
  | { step: "codes"; recoveryCodes: string[] }
  | { step: "disable"; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "overview");
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "policy") {
    const answer = await setTwoFactorPolicy(context, request, formData.get("required") === "on");
    return answer.ok
      ? redirectWithSuccess(context, SECURITY_PAGE, answer.message)
      : redirectWithError(context, SECURITY_PAGE, answer.message);
  }
  if (intent === "setup") {
    const answer = await startTwoFactorSetup(context, request);
    if (!answer.ok) return redirectWithError(context, SECURITY_PAGE, answer.message);
    const qrDataUri = `data:image/svg+xml;base64,${Buffer.from(answer.payload.qrSvg).toString("base64")}`;
    return data<ActionAnswer>({ step: "scan", qrDataUri, secret: answer.payload.secret });
  }
  const submission = parseWithZod(formData, { schema: codeSchema });
  if (intent === "enable") {
    // The scan step is shown again with the message; its secret stays the pending one.
    const again = {
      step: "scan" as const,
      qrDataUri: String(formData.get("qr") ?? ""),
      secret: String(formData.get("secret") ?? ""),
    };
    if (submission.status !== "success")
      return data<ActionAnswer>({ ...again, result: submission.reply() }, { status: 400 });
    const answer = await enableTwoFactor(context, request, submission.value.code);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["code"] });
      return data<ActionAnswer>({ ...again, result }, { status });
    }
    return data<ActionAnswer>({ step: "codes", recoveryCodes: answer.payload.recoveryCodes });
  }
  if (submission.status !== "success")
    return data<ActionAnswer>({ step: "disable", result: submission.reply() }, { status: 400 });
  const answer = await disableTwoFactor(context, request, submission.value.code);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["code"] });
    return data<ActionAnswer>({ step: "disable", result }, { status });
  }
  return redirectWithSuccess(context, SECURITY_PAGE, answer.message);
}

function CodeForm({
  id,
  intent,
  button,
  lastResult,
  hidden = {},
}: {
  id: string;
  intent: string;
  button: string;
  lastResult: SubmissionResult<string[]> | undefined;
  hidden?: Record<string, string>;
}) {
  const [form, fields] = useSchemaForm(codeSchema, { id, lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="flex max-w-sm flex-col gap-2">
      <FormErrors form={form} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <TextField label="Code" meta={fields.code} type="text" autoComplete="one-time-code" />
      <div>
        <SubmitButton intent={intent} pendingText="Checking…">
          {button}
        </SubmitButton>
      </div>
    </Form>
  );
}

export default function SecurityPage() {
  const { status, isOwner, mustEnrol } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as ActionAnswer | undefined;
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Security">
        Two-factor sign-in asks for a code from an authenticator app after your password, so a stolen password alone
        does not open the back office.
      </AdminHeading>
      {mustEnrol && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 font-semibold text-amber-900">
          The owner requires two-factor sign-in for all staff. Turn it on to use the back office.
        </p>
      )}
      <section
        aria-labelledby="two-factor-title"
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4"
      >
        <h2 id="two-factor-title" className="text-lg font-bold">
          Two-factor sign-in: {status.enabled ? "on" : "off"}
        </h2>
        {answer?.step === "codes" ? (
          <div className="flex flex-col gap-2">
            <p role="status" className="font-semibold">
              Two-factor sign-in is on. These recovery codes are shown once: keep them somewhere safe. Each signs you in
              once if you lose your phone.
            </p>
            <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono sm:grid-cols-5">
              {answer.recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
          </div>
        ) : answer?.step === "scan" ? (
          <div className="flex flex-col gap-3">
            <p>
              Scan this code with your authenticator app, or type the key into it, then enter the 6 digits it shows.
            </p>
            {answer.qrDataUri && (
              <img src={answer.qrDataUri} alt="QR code for your authenticator app" width={200} height={200} />
            )}
            <p className="text-sm break-all">
              Key: <code className="font-mono">{answer.secret}</code>
            </p>
            <CodeForm
              id="enable"
              intent="enable"
              button="Turn on"
              lastResult={answer.result}
              hidden={{ qr: answer.qrDataUri, secret: answer.secret }}
            />
          </div>
        ) : status.enabled ? (
          <div className="flex flex-col gap-2">
            <p>{status.recoveryCodesLeft} recovery codes left.</p>
            {status.requiredForAll ? (
              <p className="text-slate-600">The owner requires it for all staff, so it stays on.</p>
            ) : (
              <details open={answer?.step === "disable"}>
                <summary className="cursor-pointer font-semibold">Turn off</summary>
                <div className="mt-2">
                  <CodeForm
                    id="disable"
                    intent="disable"
                    button="Turn off two-factor sign-in"
                    lastResult={answer?.step === "disable" ? answer.result : undefined}
                  />
                </div>
              </details>
            )}
          </div>
        ) : (
          <Form method="post">
            <button type="submit" name="intent" value="setup" className={secondaryButtonClass}>
              Set up two-factor sign-in
            </button>
          </Form>
        )}
      </section>
      {isOwner && (
        <section
          aria-labelledby="policy-title"
          className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4"
        >
          <h2 id="policy-title" className="text-lg font-bold">
            For all staff
          </h2>
          <Form method="post" className="flex flex-col gap-2">
            <label className="flex items-center gap-2">
              <input type="checkbox" name="required" defaultChecked={status.requiredForAll} className="size-4" />
              Require two-factor sign-in of every staff member
            </label>
            <p className="text-sm text-slate-600">
              Staff without it can then only turn it on until they have. Turn on your own first.
            </p>
            <div>
              <button type="submit" name="intent" value="policy" className={secondaryButtonClass}>
                Save
              </button>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
