import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { blocklistEntrySchema } from "../../contract/admin-customers";
import {
  AdminHeading,
  AdminTable,
  AdminTime,
  Pager,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { addBlocklistEntry, listBlocklist, removeBlocklistEntry } from "~/lib/admin-customers.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";
import { OnceKeyField } from "~/components/admin/once-key";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";

export const meta: MetaFunction = () => [{ title: "Blocklist | Back office" }];

const BLOCKLIST_PAGE = "/admin/blocklist";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "customersRead");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  return {
    search,
    list: await listBlocklist(context, request, { search, page: pageFrom(url) }),
    canChange: me.areas.includes("customersWrite"),
    onceKey: newOnceKey(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const formData = await request.formData();
  if (formData.get("intent") === "remove") {
    const answer = await removeBlocklistEntry(context, request, String(formData.get("entryId") ?? ""));
    if (!answer.ok) return redirectWithError(context, BLOCKLIST_PAGE, answer.message);
    return redirectWithSuccess(context, BLOCKLIST_PAGE, answer.message);
  }
  const submission = parseWithZod(formData, { schema: blocklistEntrySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await addBlocklistEntry(context, request, submission.value, onceKeyOf(formData));
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["pattern", "note"] });
    return data({ result }, { status });
  }
  return redirectWithSuccess(context, BLOCKLIST_PAGE, answer.message);
}

function AddForm({ onceKey }: { onceKey: string }) {
  const [form, fields] = useSchemaForm(blocklistEntrySchema, {
    id: "blocklist-add",
    lastResult: useActionData<typeof action>()?.result,
  });
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

export default function BlocklistPage() {
  const { search, list, canChange, onceKey } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Blocklist">
        Addresses refused at checkout, balance top-ups and redeem keys, without regard to letter case. Blocked accounts
        are refused too.
      </AdminHeading>
      {canChange && <AddForm onceKey={onceKey} />}
      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="blocklist-search" className="text-sm font-semibold">
            Search the blocklist
          </label>
          <input
            id="blocklist-search"
            name="search"
            type="search"
            defaultValue={search}
            maxLength={200}
            placeholder="part of a pattern or note"
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>
      {list.records.length === 0 ? (
        <p className="text-slate-600">{search ? "No entry matches this search." : "No address is refused."}</p>
      ) : (
        <AdminTable label="Blocklist entries">
          <thead>
            <tr>
              <th className={th}>Address or pattern</th>
              <th className={th}>Note</th>
              <th className={th}>Added</th>
              {canChange && <th className={th}>Remove</th>}
            </tr>
          </thead>
          <tbody>
            {list.records.map((entry) => (
              <tr key={entry._id}>
                <td className={`${td} font-mono break-all`}>{entry.pattern}</td>
                <td className={`${td} break-words`}>{entry.note}</td>
                <td className={`${td} break-all`}>
                  <AdminTime iso={entry.createdAt} />
                  {entry.createdBy && <span className="block text-slate-600">{entry.createdBy}</span>}
                </td>
                {canChange && (
                  <td className={td}>
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
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager label="Blocklist pages" pager={list.pager} href={(page) => pageHref(BLOCKLIST_PAGE, { search }, page)} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
