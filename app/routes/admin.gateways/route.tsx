import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { CommandForm, RecordTable } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { listGateways, switchGateway } from "./gateways.server";
import { intentOf, toastAnswer } from "~/lib/form-action.server";

export const meta: MetaFunction = () => [{ title: "Payment gateways | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "gateways");
  return { gateways: await listGateways(context, request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "gateways");
  const formData = await request.formData();
  const enable = intentOf(formData, ["enable", "disable"]) === "enable";
  const answer = await switchGateway(context, request, String(formData.get("name") ?? ""), enable);
  return toastAnswer(context, "/admin/gateways", answer);
}

type Gateway = Awaited<ReturnType<typeof listGateways>>[number];

function keysOf(gateway: Gateway) {
  if (gateway.name === "balance") return "none needed";
  return gateway.configured ? "configured" : "not configured";
}

function SwitchForm({ gateway }: { gateway: Gateway }) {
  if (!gateway.enabled && !gateway.configured)
    return <span className="text-sm text-slate-600">Add its keys first</span>;
  const label = gateway.enabled ? "Turn off" : "Turn on";
  return (
    <CommandForm
      intent={gateway.enabled ? "disable" : "enable"}
      label={label}
      hidden={{ name: gateway.name }}
      ariaLabel={`${label} ${gateway.label}`}
      small
    />
  );
}

export default function GatewaysPage() {
  const { gateways } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Payment gateways">
        Which ways to pay checkout offers. A gateway&apos;s API key and webhook secret stay in the server&apos;s
        environment (see the README); one without them cannot be turned on here.
      </AdminHeading>
      <RecordTable
        label="Payment gateways"
        rows={gateways}
        rowKey={(gateway) => gateway.name}
        empty="No gateways."
        columns={[
          {
            header: "Gateway",
            cell: (gateway) => (
              <>
                <span className="font-semibold">{gateway.label}</span>
                <span className="block font-mono text-sm text-slate-600">{gateway.name}</span>
              </>
            ),
          },
          { header: "Keys", cell: keysOf },
          {
            header: "At checkout",
            cell: (gateway) => (
              <span className={gateway.offered ? "font-semibold text-green-800" : "text-slate-600"}>
                {gateway.offered ? "Offered" : "Not offered"}
              </span>
            ),
          },
          { header: "Change", cell: (gateway) => <SwitchForm gateway={gateway} /> },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
