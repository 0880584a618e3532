import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { balanceAdjustmentSchema, blockSchema } from "../../contract/admin-customers";
import { ORDER_STATUS_LABELS } from "../../contract/browser/order";
import { ROLE_LABELS } from "../../contract/staff";
import { AdminTable, AdminTime, Pager, inputClass, td, th } from "~/components/admin/admin-ui";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type StaffLedgerEntry, adjustBalance, readCustomerPage, setBlocked } from "~/lib/admin-customers.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { formatUsd } from "~/lib/money";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";
import { OnceKeyField } from "~/components/admin/once-key";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { CustomerPrivacy } from "~/components/admin/customer-privacy";
import { deleteCustomerAccount } from "~/lib/privacy.server";
import { staffDeleteAccountSchema } from "../../contract/privacy";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.customer.email ?? "Customer"} | Back office` },
];

/** Each list of the page pages on its own, its page kept in the address beside the others'. */
const LISTS = ["orders", "tickets", "ledger"] as const;
type ListName = (typeof LISTS)[number];

function pageOf(url: URL, name: ListName): number {
  return Math.min(Math.max(1, Math.trunc(Number(url.searchParams.get(name))) || 1), 100_000);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "customersRead");
  const url = new URL(request.url);
  const pages = Object.fromEntries(LISTS.map((name) => [name, pageOf(url, name)])) as Record<ListName, number>;
  const page = await readCustomerPage(context, request, params.customerId ?? "", pages);
  return { ...page, canChange: me.areas.includes("customersWrite"), onceKey: newOnceKey() };
}

type Intent = "balance" | "block" | "unblock" | "delete";

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const customerId = params.customerId ?? "";
  const here = `/admin/customers/${encodeURIComponent(customerId)}`;
  const formData = await request.formData();
  const requested = formData.get("intent");
  const intent: Intent =
    requested === "block" || requested === "unblock" || requested === "delete" ? requested : "balance";

  if (intent === "delete") {
    const submission = parseWithZod(formData, { schema: staffDeleteAccountSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const answer = await deleteCustomerAccount(context, request, customerId, submission.value);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["reason"] });
      return data({ intent, result }, { status });
    }
    return redirectWithSuccess(context, "/admin/customers", answer.message);
  }

  if (intent === "balance") {
    const submission = parseWithZod(formData, { schema: balanceAdjustmentSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const answer = await adjustBalance(context, request, customerId, submission.value, onceKeyOf(formData));
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["direction", "amount", "reason"] });
      return data({ intent, result }, { status });
    }
    return redirectWithSuccess(context, here, answer.message);
  }
  const submission = parseWithZod(formData, { schema: blockSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const answer = await setBlocked(context, request, customerId, {
    blocked: intent === "block",
    reason: submission.value.reason,
  });
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["reason"] });
    return data({ intent, result }, { status });
  }
  return redirectWithSuccess(context, here, answer.message);
}

function useLastResult(intent: Intent) {
  const actionData = useActionData<typeof action>();
  return actionData?.intent === intent ? actionData.result : undefined;
}

const cardClass = "flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4";

function BalanceForm({ onceKey }: { onceKey: string }) {
  const [form, fields] = useSchemaForm(balanceAdjustmentSchema, {
    id: "balance-adjustment",
    lastResult: useLastResult("balance"),
    defaultValue: { direction: "credit" },
  });
  const { key: directionKey, ...directionProps } = getSelectProps(fields.direction);
  const { key: amountKey, ...amountProps } = getInputProps(fields.amount, { type: "number" });
  return (
    <section aria-labelledby="balance-title" className={cardClass}>
      <h2 id="balance-title" className="text-lg font-bold">
        Adjust the balance
      </h2>
      <p className="text-sm text-slate-600">
        The customer sees the reason, from &lsquo;Admin&rsquo;. A debit cannot take the balance below zero.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <OnceKeyField value={onceKey} />
        <FormErrors form={form} />
        {/* The select keeps the width of its longest choice; the amount takes the rest, or the next line. */}
        <div className="flex flex-wrap gap-2">
          <div className="flex max-w-full flex-col gap-1">
            <label htmlFor={fields.direction.id} className="text-sm font-semibold">
              Change
            </label>
            <select
              key={directionKey}
              {...directionProps}
              className="max-w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
            >
              <option value="credit">Credit (add to the balance)</option>
              <option value="debit">Debit (take from the balance)</option>
            </select>
            <ErrorList id={fields.direction.errorId} errors={fields.direction.errors} />
          </div>
          <div className="flex min-w-32 flex-1 flex-col gap-1">
            <label htmlFor={fields.amount.id} className="text-sm font-semibold">
              Amount (USD)
            </label>
            <input key={amountKey} {...amountProps} step="0.01" inputMode="decimal" className={inputClass} />
            <ErrorList id={fields.amount.errorId} errors={fields.amount.errors} />
          </div>
        </div>
        <TextField label="Reason" meta={fields.reason} type="text" autoComplete="off" />
        <div>
          <SubmitButton intent="balance" pendingText="Saving…">
            Adjust balance
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function BlockForm({ blocked }: { blocked: boolean }) {
  const intent = blocked ? "unblock" : "block";
  const [form, fields] = useSchemaForm(blockSchema, { id: `customer-${intent}`, lastResult: useLastResult(intent) });
  return (
    <section aria-labelledby="block-title" className={cardClass}>
      <h2 id="block-title" className="text-lg font-bold">
        {blocked ? "Unblock the account" : "Block the account"}
      </h2>
      <p className="text-sm text-slate-600">
        {blocked
          ? "The customer can sign in again. Their old sessions stay ended."
          : "Signs the customer out everywhere at once and refuses their sign-in. The reason stays in the back office."}
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <TextField
          label={blocked ? "Reason for unblocking" : "Reason for blocking"}
          meta={fields.reason}
          type="text"
          autoComplete="off"
        />
        <div>
          <SubmitButton intent={intent} pendingText="Saving…">
            {blocked ? "Unblock" : "Block"}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** What a ledger entry was, in staff's words: a debit without an order, or an adjustment, was made by staff. */
function entryKind(entry: StaffLedgerEntry): string {
  if (entry.type === "in") return "Top-up";
  if (entry.type === "refund") return "Refund";
  if (entry.type === "out" && entry.orderId) return "Order payment";
  return entry.amount < 0 ? "Debit by staff" : "Credit by staff";
}

/** An email in a narrow column: it may wrap before its @, never inside a word. */
function EmailInCell({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <span className="break-words">{email}</span>;
  return (
    <>
      <span className="whitespace-nowrap">{email.slice(0, at)}</span>
      <wbr />
      <span className="whitespace-nowrap">{email.slice(at)}</span>
    </>
  );
}

const findOrderHref = (orderId: string) => `/find-order?id=${encodeURIComponent(orderId)}`;

export default function CustomerPage() {
  const { customer, orders, tickets, ledger, canChange, onceKey } = useLoaderData<typeof loader>();
  const deleteResult = useLastResult("delete");
  const location = useLocation();
  const listHref = (name: ListName, page: number) => {
    const kept = new URLSearchParams(location.search);
    if (page > 1) kept.set(name, String(page));
    else kept.delete(name);
    return kept.size ? `${location.pathname}?${kept}` : location.pathname;
  };
  const facts = [
    { label: "Username", value: customer.username },
    { label: "Role", value: customer.role === "customer" ? "Customer" : ROLE_LABELS[customer.role] },
    { label: "Balance", value: formatUsd(customer.balance), testId: "customer-balance" },
    { label: "Orders", value: String(customer.orders) },
    { label: "Tickets", value: String(customer.tickets) },
  ];
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/customers" className="font-semibold text-brand-700 underline">
          ← Customers
        </Link>
      </p>
      <header className="flex flex-col gap-1">
        {/* An email is one long word: it breaks anywhere rather than widen a phone's page. */}
        <h1 className="text-2xl font-bold break-all">{customer.email}</h1>
        <p className="text-slate-600">
          Joined <AdminTime iso={customer.joined} />
          {customer.autoCreated && " at a guest checkout (no password chosen yet)"}.
        </p>
      </header>
      {customer.blocked && (
        <p
          role="status"
          data-testid="customer-blocked"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold break-words text-red-800"
        >
          Blocked since <AdminTime iso={customer.blockedAt!} />: {customer.blockReason}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {facts.map((fact) => (
          <div key={fact.label} className="min-w-0 rounded-xl border border-slate-200 bg-white p-3">
            <dt className="text-sm text-slate-600">{fact.label}</dt>
            <dd className="truncate font-bold" data-testid={fact.testId} title={fact.value}>
              {fact.value}
            </dd>
          </div>
        ))}
      </dl>
      {canChange && (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <BalanceForm onceKey={onceKey} />
          <BlockForm blocked={customer.blocked} />
          {customer.role === "customer" && (
            <CustomerPrivacy customerId={customer._id} balance={customer.balance} lastResult={deleteResult} />
          )}
        </div>
      )}

      <section aria-labelledby="ledger-title" className="flex flex-col gap-2">
        <h2 id="ledger-title" className="text-lg font-bold">
          Balance ledger
        </h2>
        {ledger.records.length === 0 ? (
          <p className="text-slate-600">No balance changes yet.</p>
        ) : (
          <AdminTable label="Balance ledger">
            <thead>
              <tr>
                <th className={th}>When</th>
                <th className={th}>What</th>
                <th className={`${th} text-right`}>Amount</th>
                <th className={`${th} text-right`}>Balance after</th>
                <th className={th}>Reason or note</th>
                <th className={th}>By</th>
              </tr>
            </thead>
            <tbody>
              {ledger.records.map((entry) => (
                <tr key={entry._id}>
                  <td className={td}>
                    <AdminTime iso={entry.createdAt} />
                  </td>
                  <td className={td}>
                    {entry.orderId ? (
                      <Link to={findOrderHref(entry.orderId)} className="text-brand-700 underline">
                        {entryKind(entry)}
                      </Link>
                    ) : (
                      entryKind(entry)
                    )}
                  </td>
                  <td
                    className={`${td} text-right font-semibold ${entry.amount < 0 ? "text-red-700" : "text-green-700"}`}
                  >
                    {entry.amount < 0 ? "−" : "+"}
                    {formatUsd(Math.abs(entry.amount))}
                  </td>
                  <td className={`${td} text-right`}>{formatUsd(entry.balanceAfter)}</td>
                  <td className={`${td} break-words`}>{entry.note}</td>
                  <td className={td} data-testid="ledger-by">
                    {entry.staffEmail && <EmailInCell email={entry.staffEmail} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        )}
        <Pager label="Ledger pages" pager={ledger.pager} href={(page) => listHref("ledger", page)} />
      </section>

      <section aria-labelledby="orders-title" className="flex flex-col gap-2">
        <h2 id="orders-title" className="text-lg font-bold">
          Orders
        </h2>
        {orders.records.length === 0 ? (
          <p className="text-slate-600">No orders.</p>
        ) : (
          <AdminTable label="Orders">
            <thead>
              <tr>
                <th className={th}>Order</th>
                <th className={th}>Placed</th>
                <th className={th}>Status</th>
                <th className={th}>Items</th>
                <th className={`${th} text-right`}>Total</th>
                <th className={th}>Paid with</th>
              </tr>
            </thead>
            <tbody>
              {orders.records.map((order) => (
                <tr key={order._id}>
                  <td className={td}>
                    <Link to={findOrderHref(order._id)} className="font-mono text-brand-700 underline">
                      {order._id.slice(0, 8)}
                    </Link>
                  </td>
                  <td className={td}>
                    <AdminTime iso={order.createdAt} />
                  </td>
                  <td className={td}>{ORDER_STATUS_LABELS[order.status]}</td>
                  <td className={`${td} break-words`}>{order.items}</td>
                  <td className={`${td} text-right`}>
                    {formatUsd(order.price)}
                    {order.discount > 0 && (
                      <span className="block text-xs text-slate-600">−{formatUsd(order.discount)} coupon</span>
                    )}
                  </td>
                  <td className={td}>{order.paymentMethod}</td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        )}
        <Pager label="Order pages" pager={orders.pager} href={(page) => listHref("orders", page)} />
      </section>

      <section aria-labelledby="tickets-title" className="flex flex-col gap-2">
        <h2 id="tickets-title" className="text-lg font-bold">
          Tickets
        </h2>
        {tickets.records.length === 0 ? (
          <p className="text-slate-600">No tickets.</p>
        ) : (
          <AdminTable label="Tickets">
            <thead>
              <tr>
                <th className={th}>Subject</th>
                <th className={th}>Status</th>
                <th className={th}>Order</th>
                <th className={th}>Last activity</th>
              </tr>
            </thead>
            <tbody>
              {tickets.records.map((ticket) => (
                <tr key={ticket._id}>
                  <td className={`${td} break-words`}>{ticket.subject}</td>
                  <td className={td}>{ticket.status === "open" ? "Open" : "Closed"}</td>
                  <td className={td}>
                    {ticket.orderId ? (
                      <Link to={findOrderHref(ticket.orderId)} className="font-mono text-brand-700 underline">
                        {ticket.orderId.slice(0, 8)}
                      </Link>
                    ) : (
                      "General question"
                    )}
                  </td>
                  <td className={td}>
                    <AdminTime iso={ticket.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        )}
        <Pager label="Ticket pages" pager={tickets.pager} href={(page) => listHref("tickets", page)} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
