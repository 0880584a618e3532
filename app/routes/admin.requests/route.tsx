import { getFormProps, getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import {
  REQUEST_FILTERS,
  answerRequestSchema,
  completeReplacementSchema,
  rejectRequestSchema,
  replacementSettingsSchema,
} from "../../../contract/admin-inbox";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading } from "~/components/admin/admin-ui";
import { REQUEST_STATUS_LABELS, RequestCard } from "./request-card";
import { ErrorList } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type ReplacementSettings,
  listReplacementSettings,
  listRequests,
  resolveRequest,
  saveReplacementSettings,
} from "./requests.server";
import { formAction, intentOf } from "~/lib/form-action.server";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Requests | Back office" }];

const REQUESTS_PAGE = "/admin/requests";
const querySchema = z.object({ filter: listChoice(REQUEST_FILTERS, "pending"), search: listText() });

/** The settings form: an unticked box is not sent, so here it means off. */
const settingsFormSchema = replacementSettingsSchema.extend({
  autoReplace: z
    .boolean()
    .optional()
    .transform((on) => on ?? false),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQuery(new URL(request.url), querySchema);
  const [list, settings] = await Promise.all([
    listRequests(context, request, query),
    listReplacementSettings(context, request),
  ]);
  return { query, list, settings };
}

const INTENTS = ["complete", "paste", "answer", "reject", "settings"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "support");
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const id = String(formData.get("id") ?? "");
  // Each request has its forms, each product its settings form: a reply names the one posted.
  const form = `${intent}-${id}`;
  const back = `${REQUESTS_PAGE}${new URL(request.url).search}`;
  const done = (answer: { message: string }) => redirectWithSuccess(context, back, answer.message);
  switch (intent) {
    case "settings":
      return formAction(formData, {
        form,
        schema: settingsFormSchema,
        call: (settings) => saveReplacementSettings(context, request, id, settings),
        done: (answer) => redirectWithSuccess(context, `${back}#settings`, answer.message),
      });
    case "reject":
      return formAction(formData, {
        form,
        schema: rejectRequestSchema,
        call: ({ reason }) => resolveRequest(context, request, id, "reject", { reason }),
        done,
      });
    case "answer":
      return formAction(formData, {
        form,
        schema: answerRequestSchema,
        call: ({ answer }) => resolveRequest(context, request, id, "answer", { answer }),
        done,
      });
    default:
      return formAction(formData, {
        form,
        schema: completeReplacementSchema,
        // From stock unless a credential is pasted.
        call: ({ credential }) =>
          resolveRequest(context, request, id, "complete", { credential: intent === "paste" ? credential : "" }),
        done,
      });
  }
}

function SettingsForm({ product }: { product: ReplacementSettings }) {
  const formId = `settings-${product._id}`;
  const [form, fields] = useRepliedSchemaForm(settingsFormSchema, formId, {
    defaultValue: { autoReplace: product.autoReplace ? "on" : undefined, replacementLimit: product.replacementLimit },
  });
  const { key: autoKey, ...autoProps } = getInputProps(fields.autoReplace, { type: "checkbox" });
  const { key: limitKey, ...limitProps } = getInputProps(fields.replacementLimit, { type: "number" });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="id" value={product._id} />
      <label className="flex items-center gap-2">
        <input key={autoKey} {...autoProps} className="h-4 w-4" />
        Automatic
      </label>
      <label className="flex items-center gap-2">
        Limit
        <input key={limitKey} {...limitProps} className="w-20 rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <button
        type="submit"
        name="intent"
        value="settings"
        aria-label={`Save ${product.title}`}
        className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold hover:bg-slate-100"
      >
        Save
      </button>
      <ErrorList id={fields.replacementLimit.errorId} errors={fields.replacementLimit.errors} />
    </Form>
  );
}

export default function RequestsPage() {
  const { query, list, settings } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Requests">
        Warranty replacements and questions about an order, the oldest pending first. Whatever you decide, the customer
        is mailed and sees it on their order.
      </AdminHeading>
      <AdminList
        label="Requests"
        pathname={REQUESTS_PAGE}
        query={query}
        tabs={{ name: "filter", label: "Request filters", options: REQUEST_STATUS_LABELS }}
        filters={[{ name: "search", label: "Search requests", placeholder: "customer email, product or order id" }]}
        empty={["No request matches this search.", "No request here."]}
        list={list}
        card={(request) => <RequestCard request={request} />}
      />
      <section id="settings" aria-labelledby="settings-title" className="flex flex-col gap-2">
        <h2 id="settings-title" className="text-lg font-bold">
          Replacement settings
        </h2>
        <p className="text-sm text-slate-600">
          Automatic: a request is filled from stock at once when there is stock; off, every request waits here. Limit:
          how many times one credential (and its successors) may be replaced.
        </p>
        <AdminList
          label="Replacement settings"
          pathname={REQUESTS_PAGE}
          list={{ records: settings }}
          columns={[
            { header: "Product", className: "break-words", cell: (product) => product.title },
            { header: "Settings", cell: (product) => <SettingsForm product={product} /> },
          ]}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
