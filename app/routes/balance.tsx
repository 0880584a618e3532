import { randomUUID } from "node:crypto";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { topUpSchema } from "~/components/balance/top-up-schema";
import { RouteDialog } from "~/components/dialog";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { formAction } from "~/lib/form-action.server";
import { type BalanceEntry, createTopUp, readBalanceSheet } from "~/lib/balance.server";
import { formatUsd } from "~/lib/money";
import { listEnabledGateways } from "~/lib/orders.server";
import { requireUser } from "~/lib/session.server";
import { FORM_CONSTRAINTS } from "~/components/balance/top-up-schema.constraints";
import { choiceSelectProps } from "~/lib/control-props";
import { getFormProps, getInputProps, getSelectProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import type { z } from "zod";
import { Pager } from "~/components/pager";
import { DataTable, type TableColumn } from "~/components/data-table";
import { TitledSection } from "~/components/titled-section";

export const meta: MetaFunction = () => [{ title: "Balance | Store" }];

/** The page number from the URL; anything that is not a whole number from 1 reads as the first page. */
function pageFrom(url: URL): number {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const [sheet, gateways] = await Promise.all([readBalanceSheet(context, request, page), listEnabledGateways(context)]);
  return {
    sheet,
    // Balance cannot top up itself.
    gateways: gateways.filter((gateway) => gateway.name !== "balance"),
    addingBalance: url.searchParams.get("add") === "1",
    topUpKey: randomUUID(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  return formAction(await request.formData(), {
    form: "top-up",
    schema: topUpSchema,
    fields: ["balance", "paymentMethod"],
    call: ({ balance, paymentMethod, idempotencyKey }) =>
      createTopUp(context, request, { balance, paymentMethod }, idempotencyKey ?? randomUUID()),
    done: (created) => redirect(created.payload.paymentUrl),
  });
}

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** What a ledger entry was for, in the customer's words. */
function entryPurpose(entry: BalanceEntry): string {
  if (entry.by) return `${entry.by}: ${entry.note || "Balance adjustment"}`;
  if (entry.type === "in") return "Top-up";
  if (entry.type === "out") return "Order payment";
  if (entry.type === "refund") return "Credit for an unfilled order";
  return entry.note || "Balance adjustment";
}

function TopUpForm({ gateways, topUpKey }: { gateways: { name: string; label: string }[]; topUpKey: string }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof topUpSchema>>(FORM_CONSTRAINTS.topUp, "top-up", {
    defaultValue: { paymentMethod: gateways[0]?.name },
  });
  if (gateways.length === 0) return <p>No payment method is available right now. Please try again later.</p>;
  return (
    <Form method="post" action="/balance?add=1" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="idempotencyKey" value={topUpKey} />
      <FormErrors form={form} />
      <div className="flex flex-col gap-1">
        <label htmlFor={fields.balance.id} className="text-sm font-semibold">
          Amount (USD)
        </label>
        <input
          {...getInputProps(fields.balance, { type: "number" })}
          key={fields.balance.key}
          step="0.01"
          inputMode="decimal"
          className="rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
        />
        <ErrorList id={fields.balance.errorId} errors={fields.balance.errors} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={fields.paymentMethod.id} className="text-sm font-semibold">
          Payment method
        </label>
        <select
          {...choiceSelectProps(getSelectProps(fields.paymentMethod))}
          key={fields.paymentMethod.key}
          className="rounded-md border border-slate-300 px-3 py-2"
        >
          {gateways.map((gateway) => (
            <option key={gateway.name} value={gateway.name}>
              {gateway.label}
            </option>
          ))}
        </select>
        <ErrorList id={fields.paymentMethod.errorId} errors={fields.paymentMethod.errors} />
      </div>
      <p className="text-sm text-slate-600">No fee: the amount you pay is the amount added.</p>
      <SubmitButton pendingText="Redirecting to payment…">Continue to payment</SubmitButton>
    </Form>
  );
}

const isDebit = (entry: BalanceEntry) => entry.type === "out";

const HISTORY_COLUMNS: TableColumn<BalanceEntry>[] = [
  // On a phone the four columns fit without a sideways scroll (issue 38): the date wraps, and the type is left to
  // the amount's sign and colour.
  { header: "Date", className: "sm:whitespace-nowrap", cell: (entry) => dateTime.format(new Date(entry.createdAt)) },
  { header: "Type", phoneHidden: true, cell: (entry) => (isDebit(entry) ? "Debit" : "Credit") },
  {
    header: "For",
    cell: (entry) =>
      entry.orderId ? (
        <Link to={`/find-order?id=${entry.orderId}`} className="text-brand-700 underline">
          {entryPurpose(entry)}
        </Link>
      ) : (
        entryPurpose(entry)
      ),
  },
  {
    header: "Amount",
    align: "right",
    className: (entry) => `font-semibold whitespace-nowrap ${isDebit(entry) ? "text-red-700" : "text-green-700"}`,
    cell: (entry) => (
      <>
        {isDebit(entry) ? "−" : "+"}
        {formatUsd(entry.amount)}
      </>
    ),
  },
];

export default function BalancePage() {
  const { sheet, gateways, addingBalance, topUpKey } = useLoaderData<typeof loader>();
  const { pager } = sheet;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Balance</h1>
          <p className="text-slate-600">
            Current balance:{" "}
            <strong className="text-2xl text-slate-900" data-testid="balance-current">
              {formatUsd(sheet.balance)}
            </strong>
          </p>
        </div>
        <Link
          to="/balance?add=1"
          preventScrollReset
          className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
        >
          Add Balance
        </Link>
      </header>
      <TitledSection id="history" title="History">
        {sheet.records.length === 0 ? (
          <p data-testid="balance-history-empty">No history found</p>
        ) : (
          <DataTable
            rows={sheet.records}
            columns={HISTORY_COLUMNS}
            minWidth="sm:min-w-[32rem]"
            testId="balance-history"
          />
        )}
        <Pager label="History pages" pager={pager} href={(page) => `/balance?page=${page}`} />
      </TitledSection>
      {addingBalance && (
        <RouteDialog title="Add Balance" closeHref="/balance">
          <TopUpForm gateways={gateways} topUpKey={topUpKey} />
        </RouteDialog>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
