import { getFormProps, getSelectProps } from "@conform-to/react";
import { choiceSelectProps } from "~/lib/control-props";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ROLE_LABELS, STAFF_ROLES } from "../../contract/staff";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { staffRoleSchema } from "~/components/admin/schemas";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { listStaff, requireStaff, setStaffRole } from "~/lib/admin.server";
import { formAction } from "~/lib/form-action.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Staff | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "staff");
  return listStaff(context, request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "staff");
  return formAction(await request.formData(), {
    form: "staff-role",
    schema: staffRoleSchema,
    call: (input) => setStaffRole(context, request, input),
    done: (answer) => redirectWithSuccess(context, "/admin/staff", answer.message),
  });
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
          <SubmitButton pendingText="Saving…">Save role</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export default function StaffPage() {
  const { records } = useLoaderData<typeof loader>();
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
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
