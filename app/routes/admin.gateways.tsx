import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminHeading, AdminTable, secondaryButtonClass, td, th } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { listGateways, switchGateway } from "~/lib/admin-content.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Payment gateways | Back office" }];

const GATEWAYS_PAGE = "/admin/gateways";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "gateways");
  return { gateways: await listGateways(context, request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "gateways");
  const formData = await request.formData();
  const answer = await switchGateway(
    context,
    request,
    String(formData.get("name") ?? ""),
    formData.get("intent") === "enable",
  );
  return answer.ok
    ? redirectWithSuccess(context, GATEWAYS_PAGE, answer.message)
    : redirectWithError(context, GATEWAYS_PAGE, answer.message);
}

export default function GatewaysPage() {
  const { gateways } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Payment gateways">
        Which ways to pay checkout offers. A gateway&apos;s API key and webhook secret stay in the server&apos;s
        environment (see the README); one without them cannot be turned on here.
      </AdminHeading>
      <AdminTable label="Payment gateways">
        <thead>
          <tr>
            <th className={th}>Gateway</th>
            <th className={th}>Keys</th>
            <th className={th}>At checkout</th>
            <th className={th}>Change</th>
          </tr>
        </thead>
        <tbody>
          {gateways.map((gateway) => (
            <tr key={gateway.name}>
              <td className={td}>
                <span className="font-semibold">{gateway.label}</span>
                <span className="block font-mono text-sm text-slate-600">{gateway.name}</span>
              </td>
              <td className={td}>
                {gateway.name === "balance" ? "none needed" : gateway.configured ? "configured" : "not configured"}
              </td>
              <td className={td}>
                <span className={gateway.offered ? "font-semibold text-green-800" : "text-slate-600"}>
                  {gateway.offered ? "Offered" : "Not offered"}
                </span>
              </td>
              <td className={td}>
                {gateway.enabled || gateway.configured ? (
                  <Form method="post">
                    <input type="hidden" name="name" value={gateway.name} />
                    <button
                      type="submit"
                      name="intent"
                      value={gateway.enabled ? "disable" : "enable"}
                      aria-label={`${gateway.enabled ? "Turn off" : "Turn on"} ${gateway.label}`}
                      className={`${secondaryButtonClass} px-3 py-1 text-sm`}
                    >
                      {gateway.enabled ? "Turn off" : "Turn on"}
                    </button>
                  </Form>
                ) : (
                  <span className="text-sm text-slate-600">Add its keys first</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </AdminTable>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
