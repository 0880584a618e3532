import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { TextField } from "~/components/account/form-fields";
import { AdminForm } from "~/components/admin/admin-fields";
import { AdminHeading, secondaryButtonClass } from "~/components/admin/admin-ui";
import { CommandForm, PageSection } from "~/components/admin/detail-ui";
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
import { formAction, intentOf, replyToForm, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Security | Back office" }];

const codeSchema = z.object({
  code: z
    .string({ required_error: "Enter the code from your app", invalid_type_error: "Enter the code from your app" })
    .trim()
    .min(6, "Enter the 6-digit code from your app")
    .max(40, "Enter the 6-digit code from your app"),
});

/** Where turning two-factor on stands: the code to scan, then the recovery codes (both in the reply, shown once). */
type EnrolStep = { step: "scan"; qrDataUri: string; secret: string } | { step: "codes"; recoveryCodes: string[] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return {
    status: await readTwoFactor(context, request),
    isOwner: me.areas.includes("staff"),
    mustEnrol: me.twoFactorEnrolmentRequired,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "overview");
  const formData = await request.formData();
  const enrolStep = (step: EnrolStep) => replyToForm("enable", {}, 200, () => step);
  switch (intentOf(formData, ["policy", "setup", "enable", "disable"])) {
    case "policy":
      return toastAnswer(
        context,
        SECURITY_PAGE,
        await setTwoFactorPolicy(context, request, formData.get("required") === "on"),
      );
    case "setup": {
      const started = await startTwoFactorSetup(context, request);
      if (!started.ok) return toastAnswer(context, SECURITY_PAGE, started);
      const qrDataUri = `data:image/svg+xml;base64,${Buffer.from(started.payload.qrSvg).toString("base64")}`;
      return enrolStep({ step: "scan", qrDataUri, secret: started.payload.secret });
    }
    case "enable":
      return formAction(formData, {
        form: "enable",
        schema: codeSchema,
        // A refused code shows the scan step again; its secret stays the pending one.
        extra: (): EnrolStep => ({
          step: "scan",
          qrDataUri: String(formData.get("qr") ?? ""),
          secret: String(formData.get("secret") ?? ""),
        }),
        call: ({ code }) => enableTwoFactor(context, request, code),
        done: (answer) => enrolStep({ step: "codes", recoveryCodes: answer.payload.recoveryCodes }),
      });
    case "disable":
      return formAction(formData, {
        form: "disable",
        schema: codeSchema,
        call: ({ code }) => disableTwoFactor(context, request, code),
        done: (answer) => toastAnswer(context, SECURITY_PAGE, answer),
      });
  }
}

function CodeForm({
  id,
  button,
  hidden,
}: {
  id: "enable" | "disable";
  button: string;
  hidden?: Record<string, string>;
}) {
  const [form, fields] = useRepliedSchemaForm(codeSchema, id);
  return (
    <AdminForm
      form={form}
      intent={id}
      submitLabel={button}
      pendingText="Checking…"
      hidden={hidden}
      className="flex max-w-sm flex-col gap-2"
    >
      <TextField label="Code" meta={fields.code} type="text" autoComplete="one-time-code" />
    </AdminForm>
  );
}

function TwoFactor({
  enabled,
  recoveryCodesLeft,
  requiredForAll,
}: {
  enabled: boolean;
  recoveryCodesLeft: number;
  requiredForAll: boolean;
}) {
  const enrol = useFormReply<EnrolStep>("enable")?.extra;
  const disableRefused = useFormReply("disable") !== undefined;
  if (enrol?.step === "codes") {
    return (
      <div className="flex flex-col gap-2">
        <p role="status" className="font-semibold">
          Two-factor sign-in is on. These recovery codes are shown once: keep them somewhere safe. Each signs you in
          once if you lose your phone.
        </p>
        <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono sm:grid-cols-5">
          {enrol.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </div>
    );
  }
  if (enrol?.step === "scan") {
    return (
      <div className="flex flex-col gap-3">
        <p>Scan this code with your authenticator app, or type the key into it, then enter the 6 digits it shows.</p>
        {enrol.qrDataUri && (
          <img src={enrol.qrDataUri} alt="QR code for your authenticator app" width={200} height={200} />
        )}
        <p className="text-sm break-all">
          Key: <code className="font-mono">{enrol.secret}</code>
        </p>
        <CodeForm id="enable" button="Turn on" hidden={{ qr: enrol.qrDataUri, secret: enrol.secret }} />
      </div>
    );
  }
  if (!enabled) return <CommandForm intent="setup" label="Set up two-factor sign-in" />;
  return (
    <div className="flex flex-col gap-2">
      <p>{recoveryCodesLeft} recovery codes left.</p>
      {requiredForAll ? (
        <p className="text-slate-600">The owner requires it for all staff, so it stays on.</p>
      ) : (
        <details open={disableRefused}>
          <summary className="cursor-pointer font-semibold">Turn off</summary>
          <div className="mt-2">
            <CodeForm id="disable" button="Turn off two-factor sign-in" />
          </div>
        </details>
      )}
    </div>
  );
}

export default function SecurityPage() {
  const { status, isOwner, mustEnrol } = useLoaderData<typeof loader>();
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
      <PageSection card title={`Two-factor sign-in: ${status.enabled ? "on" : "off"}`}>
        <TwoFactor {...status} />
      </PageSection>
      {isOwner && (
        <PageSection card title="For all staff">
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
        </PageSection>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
