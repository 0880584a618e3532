import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { KEY_STATES } from "../../../contract/admin-keys";
import { AdminList, BulkForm } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { GenerateForm, GeneratedCodes, days } from "./keys-generate";
import { keyGenerateSchema, keyRevokeSchema } from "./keys-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type GeneratedBatch,
  type KeyOption,
  type RedeemKeyRow,
  generateInput,
  generateKeys,
  listKeyOptions,
  listKeys,
  newBatchId,
  revokeKeys,
} from "./keys.server";
import { formAction, intentOf, replyToForm } from "~/lib/form-action.server";
import { listChoice, listId, listQuery, listText } from "~/lib/list-query";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useFormReply } from "~/lib/form-reply";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Redeem keys | Back office" }];

const querySchema = z.object({
  state: listChoice(KEY_STATES),
  optionId: listId(),
  batchId: listId(),
  hint: listText(8),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "keys");
  const query = listQuery(new URL(request.url), querySchema);
  const [options, keys] = await Promise.all([listKeyOptions(context, request), listKeys(context, request, query)]);
  return { query, options: options.records, keys, batchId: newBatchId() };
}

const GENERATE_FORM = "key-generate";

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "keys");
  const formData = await request.formData();
  if (intentOf(formData, ["generate", "revoke"]) === "revoke") {
    const back = new URL(request.url);
    return formAction(formData, {
      form: "key-revoke",
      schema: keyRevokeSchema,
      fields: [],
      call: ({ keyIds }) => revokeKeys(context, request, keyIds),
      done: (answer) => redirectWithSuccess(context, `${back.pathname}${back.search}`, answer.message),
    });
  }
  return formAction(formData, {
    form: GENERATE_FORM,
    schema: keyGenerateSchema,
    fields: ["quantity", "count"],
    call: (value) => generateKeys(context, request, generateInput(value)),
    // Not a redirect: the codes exist only in this answer (stored hashed), so they are shown here, once.
    done: ({ payload }, _value, submission) =>
      replyToForm(GENERATE_FORM, submission.reply({ resetForm: true }), 200, () => payload),
  });
}

function KeyState({ row }: { row: RedeemKeyRow }) {
  if (row.state === "used") {
    return (
      <span>
        used
        {row.orderId && (
          <>
            {" "}
            by{" "}
            <Link to={`/find-order?id=${row.orderId}`} className="break-all font-semibold text-brand-700 underline">
              {row.redeemedBy ?? "a removed account"}
            </Link>
          </>
        )}
        {row.usedAt && (
          <span className="block text-xs text-slate-600">
            <AdminTime iso={row.usedAt} />
          </span>
        )}
      </span>
    );
  }
  return <span>{row.state}</span>;
}

const planName = (option: KeyOption) => `${option.product.title} — ${option.title}`;

function KeyList({ options }: { options: KeyOption[] }) {
  const { query, keys } = useLoaderData<typeof loader>();
  const [form, fields] = useRepliedSchemaForm(keyRevokeSchema, "key-revoke");
  return (
    <AdminList
      label="Redeem keys"
      pathname="/admin/keys"
      query={query}
      filters={[
        { name: "state", label: "State", any: "any", choices: KEY_STATES },
        {
          name: "optionId",
          label: "Plan",
          any: "all",
          choices: options.map((option) => ({ value: option._id, label: planName(option) })),
        },
        { name: "hint", label: "Code ends with", type: "text", maxLength: 8, placeholder: "last 4 characters" },
      ]}
      keep={["batchId"]}
      submit="Filter"
      empty={["No key matches.", "No keys yet."]}
      list={keys}
      select={{
        form: form.id,
        name: fields.keyIds.name,
        label: (row) => `Choose the key ending ${row.hint}`,
        when: (row) => row.state === "unused",
      }}
      bulk={
        <BulkForm form={form} field={fields.keyIds} intent="revoke" pendingText="Revoking…">
          Revoke the chosen keys
        </BulkForm>
      }
      columns={[
        { header: "Code", className: "font-mono whitespace-nowrap", cell: (row) => `…-${row.hint}` },
        {
          header: "Plan",
          className: "break-words",
          cell: (row) => (
            <>
              {row.product.title} — {row.option.title}
              <span className="block text-xs text-slate-600">{days(row.durationDays)} of warranty</span>
            </>
          ),
        },
        { header: "Quantity", cell: (row) => row.quantity },
        { header: "State", cell: (row) => <KeyState row={row} /> },
        { header: "Created", cell: (row) => <AdminTime iso={row.createdAt} /> },
        { header: "Expires", cell: (row) => (row.expiresAt ? <AdminTime iso={row.expiresAt} /> : "never") },
      ]}
    >
      {query.batchId && (
        <p className="text-sm">
          One batch only.{" "}
          <Link to="/admin/keys" className="font-semibold text-brand-700 underline">
            All keys
          </Link>
        </p>
      )}
    </AdminList>
  );
}

export default function KeysPage() {
  const { options, batchId } = useLoaderData<typeof loader>();
  const generated = useFormReply<GeneratedBatch>(GENERATE_FORM);
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Redeem keys">
        Keys customers redeem on /redeem-key for an order of a plan, once. Unused keys can be revoked.
      </AdminHeading>
      {generated?.extra && <GeneratedCodes batch={generated.extra} />}
      <GenerateForm options={options} batchId={batchId} lastResult={generated?.result} />
      <section aria-labelledby="key-list-title" className="flex flex-col gap-3">
        <h2 id="key-list-title" className="text-lg font-bold">
          Keys
        </h2>
        <KeyList options={options} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
