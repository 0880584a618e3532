import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { blocklistEntrySchema } from "../../../contract/admin-customers";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type BlocklistEntry, addBlocklistEntry, listBlocklist, removeBlocklistEntry } from "./blocklist.server";
import { listQuery, listText } from "~/lib/list-query";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";
import { OnceKeyField } from "~/components/admin/admin-fields";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";

export const meta: MetaFunction = () => [{ title: "Blocklist | Back office" }];

const BLOCKLIST_PAGE = "/admin/blocklist";
const querySchema = z.object({ search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "customersRead");
  const query = listQuery(new URL(request.url), querySchema);
  return {
    query,
    list: await listBlocklist(context, request, query),
    canChange: me.areas.includes("customersWrite"),
    onceKey: newOnceKey(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const formData = await request.formData();
  if (intentOf(formData, ["add", "remove"]) === "remove") {
    const answer = await removeBlocklistEntry(context, request, String(formData.get("entryId") ?? ""));
    return toastAnswer(context, BLOCKLIST_PAGE, answer);
  }
  return formAction(formData, {
    form: "blocklist-add",
    schema: blocklistEntrySchema,
    call: (input) => addBlocklistEntry(context, request, input, onceKeyOf(formData)),
    done: (answer) => redirectWithSuccess(context, BLOCKLIST_PAGE, answer.message),
  });
}

function AddForm({ onceKey }: { onceKey: string }) {
  const [form, fields] = useRepliedSchemaForm(blocklistEntrySchema, "blocklist-add");
  return (
    <section aria-labelledby="blocklist-add-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="blocklist-add-title" className="mb-2 text-lg font-bold">
        Refuse an address
      </h2>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <OnceKeyField value={onceKey} />
        <FormErrors form={form} />
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <TextField
            label="Address or pattern"
            meta={fields.pattern}
            type="text"
            autoComplete="off"
            hint="name@example.com, or * for any text: *@example.com, bot*@example.com"
          />
          <TextField label="Note (optional)" meta={fields.note} type="text" autoComplete="off" />
        </div>
        <div>
          <SubmitButton intent="add" pendingText="Adding…">
            Add to blocklist
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function Added({ entry }: { entry: BlocklistEntry }) {
  return (
    <>
      <AdminTime iso={entry.createdAt} />
      {entry.createdBy && <span className="block text-slate-600">{entry.createdBy}</span>}
    </>
  );
}

function RemoveButton({ entry }: { entry: BlocklistEntry }) {
  return (
    <Form method="post">
      <input type="hidden" name="entryId" value={entry._id} />
      <button
        type="submit"
        name="intent"
        value="remove"
        aria-label={`Remove ${entry.pattern}`}
        className={secondaryButtonClass}
      >
        Remove
      </button>
    </Form>
  );
}

export default function BlocklistPage() {
  const { query, list, canChange, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Blocklist">
        Addresses refused at checkout, balance top-ups and redeem keys, without regard to letter case. Blocked accounts
        are refused too.
      </AdminHeading>
      {canChange && <AddForm onceKey={onceKey} />}
      <AdminList
        label="Blocklist entries"
        pathname={BLOCKLIST_PAGE}
        query={query}
        filters={[{ name: "search", label: "Search the blocklist", placeholder: "part of a pattern or note" }]}
        empty={["No entry matches this search.", "No address is refused."]}
        list={list}
        columns={[
          { header: "Address or pattern", className: "font-mono break-all", cell: (entry) => entry.pattern },
          { header: "Note", className: "break-words", cell: (entry) => entry.note },
          { header: "Added", className: "break-all", cell: (entry) => <Added entry={entry} /> },
          ...(canChange ? [{ header: "Remove", cell: (entry: BlocklistEntry) => <RemoveButton entry={entry} /> }] : []),
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
