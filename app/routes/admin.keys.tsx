import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { KEYS_PER_BATCH_MAX, KEY_QUANTITY_MAX, KEY_STATES } from "../../contract/admin-keys";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import {
  AdminHeading,
  AdminTable,
  AdminTime,
  Pager,
  buttonClass,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { keyGenerateSchema, keyRevokeSchema } from "~/components/admin/keys-schemas";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type GeneratedBatch,
  type KeyFilters,
  type KeyOption,
  type RedeemKeyRow,
  generateInput,
  generateKeys,
  listKeyOptions,
  listKeys,
  newBatchId,
  revokeKeys,
} from "~/lib/admin-keys.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Redeem keys | Back office" }];

function filtersFrom(url: URL): KeyFilters {
  const param = (name: string) => (url.searchParams.get(name) ?? "").trim();
  const state = param("state");
  const id = (name: string) => (PUBLIC_ID_PATTERN.test(param(name)) ? param(name) : "");
  return {
    state: (KEY_STATES as readonly string[]).includes(state) ? state : "",
    optionId: id("optionId"),
    batchId: id("batchId"),
    hint: param("hint").slice(0, 8),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "keys");
  const url = new URL(request.url);
  const filters = filtersFrom(url);
  const [options, keys] = await Promise.all([
    listKeyOptions(context, request),
    listKeys(context, request, { ...filters, page: pageFrom(url) }),
  ]);
  return { filters, options: options.records, keys, batchId: newBatchId() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "keys");
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "generate") {
    const submission = parseWithZod(formData, { schema: keyGenerateSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const answer = await generateKeys(context, request, generateInput(submission.value));
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["quantity", "count"] });
      return data({ intent, result }, { status });
    }
    // Not a redirect: the codes exist only in this answer (stored hashed), so they are shown here, once.
    return data({ intent, result: submission.reply({ resetForm: true }), generated: answer.payload });
  }
  if (intent === "revoke") {
    const submission = parseWithZod(formData, { schema: keyRevokeSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const answer = await revokeKeys(context, request, submission.value.keyIds);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: [] });
      return data({ intent, result }, { status });
    }
    const back = new URL(request.url);
    return redirectWithSuccess(context, `${back.pathname}${back.search}`, answer.message);
  }
  throw new Response("Unknown form", { status: 400 });
}

function useReplyTo(intent: string) {
  const answer = useActionData<typeof action>();
  return answer?.intent === intent ? answer : undefined;
}

const days = (count: number) => `${count} day${count === 1 ? "" : "s"}`;

function GenerateForm({ options, batchId }: { options: KeyOption[]; batchId: string }) {
  const reply = useReplyTo("generate");
  const [form, fields] = useSchemaForm(keyGenerateSchema, {
    id: `key-generate-${batchId}`,
    lastResult: reply?.result,
    defaultValue: { quantity: "1", count: "10", batchId },
  });
  const { key: planKey, ...planProps } = getSelectProps(fields.plan);
  const { key: quantityKey, ...quantityProps } = getInputProps(fields.quantity, { type: "number" });
  const { key: countKey, ...countProps } = getInputProps(fields.count, { type: "number" });
  const { key: expiresKey, ...expiresProps } = getInputProps(fields.expires, { type: "date" });
  return (
    <section aria-labelledby="key-generate-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="key-generate-title" className="mb-1 text-lg font-bold">
        Generate keys
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Each key pays once for the chosen plan and quantity on /redeem-key. The codes are shown once, right after
        generating, or downloaded as CSV: only a fingerprint of each is stored.
      </p>
      {/* A native post either way: the CSV answer is a file to save, which a script-driven submission would not download. */}
      <Form method="post" reloadDocument {...getFormProps(form)} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="generate" />
        <input type="hidden" name={fields.batchId.name} value={batchId} />
        <div className="sm:col-span-2">
          <FormErrors form={form} />
        </div>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label htmlFor={fields.plan.id} className="text-sm font-semibold">
            Plan and warranty
          </label>
          <select key={planKey} {...planProps} className={inputClass}>
            <option value="">Choose…</option>
            {options.map((option) => (
              <optgroup key={option._id} label={`${option.product.title} — ${option.title}`}>
                {option.durations.map((duration) => (
                  <option key={duration.days} value={`${option._id}:${duration.days}`}>
                    {option.product.title} — {option.title}, {duration.title} ({days(duration.days)})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <ErrorList id={fields.plan.errorId} errors={fields.plan.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.quantity.id} className="text-sm font-semibold">
            Quantity per key (1–{KEY_QUANTITY_MAX})
          </label>
          <input key={quantityKey} {...quantityProps} className={inputClass} />
          <ErrorList id={fields.quantity.errorId} errors={fields.quantity.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.count.id} className="text-sm font-semibold">
            Number of keys (1–{KEYS_PER_BATCH_MAX})
          </label>
          <input key={countKey} {...countProps} className={inputClass} />
          <ErrorList id={fields.count.errorId} errors={fields.count.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.expires.id} className="text-sm font-semibold">
            Last valid day (UTC, optional)
          </label>
          <input key={expiresKey} {...expiresProps} className={inputClass} />
          <ErrorList id={fields.expires.errorId} errors={fields.expires.errors} />
        </div>
        <div className="flex flex-col gap-2 sm:col-span-2 sm:flex-row">
          <button type="submit" className={buttonClass}>
            Generate
          </button>
          <button type="submit" formAction="/admin/keys/csv" className={secondaryButtonClass}>
            Generate and download CSV
          </button>
        </div>
      </Form>
    </section>
  );
}

function GeneratedCodes({ batch }: { batch: GeneratedBatch }) {
  return (
    <section
      aria-labelledby="key-codes-title"
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="key-codes-title" className="text-lg font-bold">
        {batch.codes.length} new key{batch.codes.length === 1 ? "" : "s"}: copy them now
      </h2>
      <p className="text-sm">
        {batch.product} — {batch.option}, {days(batch.durationDays)} of warranty, quantity {batch.quantity}
        {batch.expiresAt ? (
          <>
            , valid until <AdminTime iso={batch.expiresAt} />
          </>
        ) : null}
        . These codes are not shown again; the list below shows only their last 4 characters.
      </p>
      <label htmlFor="generated-codes" className="text-sm font-semibold">
        Generated codes
      </label>
      <textarea
        id="generated-codes"
        readOnly
        rows={Math.min(batch.codes.length, 10)}
        value={batch.codes.join("\n")}
        className={`${inputClass} bg-white font-mono text-sm`}
      />
      <p>
        <Link to={`/admin/keys?batchId=${batch.batchId}`} className="text-sm font-semibold underline">
          List this batch
        </Link>
      </p>
    </section>
  );
}

function KeyFiltersForm({ filters, options }: { filters: KeyFilters; options: KeyOption[] }) {
  return (
    <Form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
      {filters.batchId && <input type="hidden" name="batchId" value={filters.batchId} />}
      <div className="flex flex-col gap-1">
        <label htmlFor="keys-state" className="text-sm font-semibold">
          State
        </label>
        <select id="keys-state" name="state" defaultValue={filters.state} className={inputClass}>
          <option value="">any</option>
          {KEY_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="keys-option" className="text-sm font-semibold">
          Plan
        </label>
        <select id="keys-option" name="optionId" defaultValue={filters.optionId} className={inputClass}>
          <option value="">all</option>
          {options.map((option) => (
            <option key={option._id} value={option._id}>
              {option.product.title} — {option.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="keys-hint" className="text-sm font-semibold">
          Code ends with
        </label>
        <input
          id="keys-hint"
          name="hint"
          defaultValue={filters.hint}
          maxLength={8}
          placeholder="last 4 characters"
          autoComplete="off"
          className={inputClass}
        />
      </div>
      <button type="submit" className={secondaryButtonClass}>
        Filter
      </button>
    </Form>
  );
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

function KeyList({ records }: { records: RedeemKeyRow[] }) {
  const reply = useReplyTo("revoke");
  const [form, fields] = useSchemaForm(keyRevokeSchema, { id: "key-revoke", lastResult: reply?.result });
  const location = useLocation();
  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      className="flex flex-col gap-3"
    >
      <FormErrors form={form} />
      <ErrorList id={fields.keyIds.errorId} errors={fields.keyIds.errors} />
      <AdminTable label="Redeem keys">
        <thead>
          <tr>
            <th className={th}>
              <span className="sr-only">Choose</span>
            </th>
            <th className={th}>Code</th>
            <th className={th}>Plan</th>
            <th className={th}>Quantity</th>
            <th className={th}>State</th>
            <th className={th}>Created</th>
            <th className={th}>Expires</th>
          </tr>
        </thead>
        <tbody>
          {records.map((row) => (
            <tr key={row._id}>
              <td className={td}>
                {row.state === "unused" && (
                  <input
                    type="checkbox"
                    name={fields.keyIds.name}
                    value={row._id}
                    aria-label={`Choose the key ending ${row.hint}`}
                    className="h-4 w-4"
                  />
                )}
              </td>
              <td className={`${td} font-mono whitespace-nowrap`}>…-{row.hint}</td>
              <td className={`${td} break-words`}>
                {row.product.title} — {row.option.title}
                <span className="block text-xs text-slate-600">{days(row.durationDays)} of warranty</span>
              </td>
              <td className={td}>{row.quantity}</td>
              <td className={td}>
                <KeyState row={row} />
              </td>
              <td className={td}>
                <AdminTime iso={row.createdAt} />
              </td>
              <td className={td}>{row.expiresAt ? <AdminTime iso={row.expiresAt} /> : "never"}</td>
            </tr>
          ))}
        </tbody>
      </AdminTable>
      <div>
        <SubmitButton intent="revoke" pendingText="Revoking…">
          Revoke the chosen keys
        </SubmitButton>
      </div>
    </Form>
  );
}

export default function KeysPage() {
  const { filters, options, keys, batchId } = useLoaderData<typeof loader>();
  const generated = useReplyTo("generate");
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Redeem keys">
        Keys customers redeem on /redeem-key for an order of a plan, once. Unused keys can be revoked.
      </AdminHeading>
      {generated && "generated" in generated && generated.generated && <GeneratedCodes batch={generated.generated} />}
      <GenerateForm options={options} batchId={batchId} />
      <section aria-labelledby="key-list-title" className="flex flex-col gap-3">
        <h2 id="key-list-title" className="text-lg font-bold">
          Keys
        </h2>
        {filters.batchId && (
          <p className="text-sm">
            One batch only.{" "}
            <Link to="/admin/keys" className="font-semibold text-brand-700 underline">
              All keys
            </Link>
          </p>
        )}
        <KeyFiltersForm filters={filters} options={options} />
        {keys.records.length === 0 ? (
          <p className="text-slate-600">{filtered ? "No key matches." : "No keys yet."}</p>
        ) : (
          <KeyList records={keys.records} />
        )}
        <Pager label="Key pages" pager={keys.pager} href={(page) => pageHref("/admin/keys", filters, page)} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
