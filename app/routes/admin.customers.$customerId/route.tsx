import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { balanceAdjustmentSchema, blockSchema } from "../../../contract/admin-customers";
import { staffDeleteAccountSchema } from "../../../contract/privacy";
import { ROLE_LABELS } from "../../../contract/staff";
import { AdminTime } from "~/components/admin/admin-ui";
import { BalanceForm, BlockForm } from "./customer-forms";
import { CUSTOMER_LISTS, type CustomerListName, CustomerLists } from "./customer-lists";
import { CustomerPrivacy } from "./customer-privacy";
import { BackLink } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { adjustBalance, readCustomerPage, setBlocked } from "./customer.server";
import { formAction, intentOf } from "~/lib/form-action.server";
import { formatUsd } from "~/lib/money";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { deleteCustomerAccount } from "~/lib/privacy.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.customer.email ?? "Customer"} | Back office` },
];

/** A list's page, in the address under the list's name: a whole number from 1, anything else is page 1. */
function pageOf(url: URL, name: CustomerListName): number {
  return Math.min(Math.max(1, Math.trunc(Number(url.searchParams.get(name))) || 1), 100_000);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "customersRead");
  const url = new URL(request.url);
  const pages = Object.fromEntries(CUSTOMER_LISTS.map((name) => [name, pageOf(url, name)])) as Record<
    CustomerListName,
    number
  >;
  const page = await readCustomerPage(context, request, params.customerId ?? "", pages);
  return { ...page, canChange: me.areas.includes("customersWrite"), onceKey: newOnceKey() };
}

const INTENTS = ["balance", "block", "unblock", "delete"] as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const customerId = params.customerId ?? "";
  const formData = await request.formData();
  const backTo = (url: string) => (answer: { message: string }) => redirectWithSuccess(context, url, answer.message);
  const backHere = backTo(`/admin/customers/${encodeURIComponent(customerId)}`);
  const intent = intentOf(formData, INTENTS);
  switch (intent) {
    case "balance":
      return formAction(formData, {
        form: "balance-adjustment",
        schema: balanceAdjustmentSchema,
        call: (value) => adjustBalance(context, request, customerId, value, onceKeyOf(formData)),
        done: backHere,
      });
    case "block":
    case "unblock":
      return formAction(formData, {
        form: `customer-${intent}`,
        schema: blockSchema,
        call: ({ reason }) => setBlocked(context, request, customerId, { blocked: intent === "block", reason }),
        done: backHere,
      });
    case "delete":
      return formAction(formData, {
        form: "customer-delete",
        schema: staffDeleteAccountSchema,
        call: (value) => deleteCustomerAccount(context, request, customerId, value),
        done: backTo("/admin/customers"),
      });
  }
}

export default function CustomerPage() {
  const { customer, orders, tickets, ledger, canChange, onceKey } = useLoaderData<typeof loader>();
  const facts = [
    { label: "Username", value: customer.username },
    { label: "Role", value: customer.role === "customer" ? "Customer" : ROLE_LABELS[customer.role] },
    { label: "Balance", value: formatUsd(customer.balance), testId: "customer-balance" },
    { label: "Orders", value: String(customer.orders) },
    { label: "Tickets", value: String(customer.tickets) },
  ];
  return (
    <div className="flex flex-col gap-6">
      <BackLink to="/admin/customers">← Customers</BackLink>
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
          {customer.role === "customer" && <CustomerPrivacy customerId={customer._id} balance={customer.balance} />}
        </div>
      )}
      <CustomerLists lists={{ orders, tickets, ledger }} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
