import { getFormProps, getSelectProps } from "@conform-to/react";
import { choiceSelectProps } from "~/lib/control-props";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ROLE_LABELS, STAFF_ROLES } from "../../../contract/staff";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { staffRoleSchema } from "./staff-schemas";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { type StaffMember, listStaff, requireStaff, resetStaffTwoFactor, setStaffRole } from "~/lib/admin.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Staff | Back office" }];

const STAFF_PAGE = "/admin/staff";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "staff");
  const { records } = await listStaff(context, request);
  return { records, myEmail: me.email };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "staff");
  const formData = await request.formData();
  if (intentOf(formData, ["role", "reset-two-factor"]) === "reset-two-factor") {
    // The box is required in the browser too; a post without it changes nothing.
    if (formData.get("confirmed") !== "on") {
      return redirectWithError(context, STAFF_PAGE, RESET_CONFIRMATION_MISSING);
    }
    const answer = await resetStaffTwoFactor(context, request, String(formData.get("memberId") ?? ""));
    return toastAnswer(context, STAFF_PAGE, answer);
  }
  return formAction(formData, {
    form: "staff-role",
    schema: staffRoleSchema,
    call: (input) => setStaffRole(context, request, input),
    done: (answer) => redirectWithSuccess(context, STAFF_PAGE, answer.message),
  });
}

const RESET_CONFIRMATION_MISSING = "Tick the box once you have made sure the request comes from the member.";

/**
 * For a member who lost both the phone and the recovery codes (docs/operations.md): their sessions end, and
 * they set two-factor sign-in up again after signing in with their password. Folded, so a slip cannot reset it.
 */
function ResetTwoFactorForm({ member }: { member: StaffMember }) {
  return (
    <details>
      <summary className="cursor-pointer text-sm font-semibold text-slate-700 underline">Reset two-factor</summary>
      <Form method="post" className="mt-2 flex max-w-xs flex-col gap-2 text-sm">
        <input type="hidden" name="memberId" value={member._id} />
        <p className="text-slate-600">
          For a member who lost both their phone and their recovery codes: they are signed out everywhere and set it up
          again after signing in with their password.
        </p>
        <label className="flex items-start gap-2">
          <input type="checkbox" name="confirmed" required className="mt-1" />
          <span>I made sure this request comes from {member.email} (in person or by a call I made)</span>
        </label>
        <button type="submit" name="intent" value="reset-two-factor" className={secondaryButtonClass}>
          Reset two-factor for {member.email}
        </button>
      </Form>
    </details>
  );
}

function RoleForm() {
  const [form, fields] = useRepliedSchemaForm(staffRoleSchema, "staff-role", { defaultValue: { role: "support" } });
  const { key: roleKey, ...roleProps } = choiceSelectProps(getSelectProps(fields.role));
  return (
    <section aria-labelledby="staff-role-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="staff-role-title" className="mb-2 text-lg font-bold">
        Give an account a role
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        The person signs up at /signup first. Choose Customer to take staff access away.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <FormErrors form={form} />
          <TextField label="Email" meta={fields.email} type="email" autoComplete="off" />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.role.id} className="text-sm font-semibold">
            Role
          </label>
          <select key={roleKey} {...roleProps} className="rounded-md border border-slate-300 px-3 py-2">
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
            <option value="customer">Customer (no staff access)</option>
          </select>
          <ErrorList id={fields.role.errorId} errors={fields.role.errors} />
        </div>
        <div className="sm:pt-6">
          <SubmitButton intent="role" pendingText="Saving…">
            Save role
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export default function StaffPage() {
  const { records, myEmail } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Staff">
        Owners reach everything; managers the catalogue, stock, customers, coupons, keys and content; support the
        tickets and requests, and reads orders and customers.
      </AdminHeading>
      <RoleForm />
      <AdminList
        label="Staff accounts"
        pathname="/admin/staff"
        list={{ records }}
        columns={[
          { header: "Email", className: "break-all", cell: (member) => member.email },
          { header: "Username", className: "break-all", cell: (member) => member.username },
          { header: "Role", cell: (member) => (member.role === "customer" ? "Customer" : ROLE_LABELS[member.role]) },
          { header: "Since", cell: (member) => <AdminTime iso={member.created} /> },
          {
            header: "Two-factor",
            cell: (member) => (
              <div className="flex flex-col gap-1">
                <span>{member.twoFactor ? "On" : "Off"}</span>
                {member.twoFactor && member.email !== myEmail && <ResetTwoFactorForm member={member} />}
              </div>
            ),
          },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
