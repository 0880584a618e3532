import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "../../../contract/browser/ids";
import { STOCK_IMPORT_MAX_BYTES, STOCK_STATES } from "../../../contract/stock";
import { AdminHeading, secondaryButtonClass } from "~/components/admin/admin-ui";
import { ImportForm, ImportReportPanel } from "./stock-import";
import { CredentialList, RemoveBatchForm } from "./stock-list";
import { FILE_TOO_LARGE, stockImportSchema, stockRemoveBatchSchema, stockRemoveSchema } from "./stock-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { importStock, readOptionStock, removeStock } from "./stock.server";
import { formAction, intentOf } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { postedForm } from "~/lib/posted-form.server";
import { REPORT_PARAMS, reportFrom, reportSearch } from "~/lib/stock-import-report";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  {
    title: loaded
      ? `Stock of ${loaded.stock.option.product.title} — ${loaded.stock.option.title} | Back office`
      : "Stock",
  },
];

const notFound = () => new Response("Not found", { status: 404 });

function optionIdOf(value: string | undefined): string {
  if (!value || !PUBLIC_ID_PATTERN.test(value)) throw notFound();
  return value;
}

const querySchema = z.object({ search: listText(), state: listChoice(STOCK_STATES), batch: listText() });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = optionIdOf(params.optionId);
  const url = new URL(request.url);
  const query = listQuery(url, querySchema);
  return { query, stock: await readOptionStock(context, request, optionId, query), report: reportFrom(url) };
}

const NOT_UTF8 = "The file must be UTF-8 text";

/** An uploaded file's text; null unless it is UTF-8. */
async function fileText(file: File): Promise<string | null> {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return null;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = optionIdOf(params.optionId);
  const here = `/admin/stock/${optionId}`;
  const formData = await postedForm(request, STOCK_IMPORT_MAX_BYTES);
  // Back to the same page of the list, its filters kept, an earlier import's result dropped.
  const back = new URL(request.url).searchParams;
  for (const name of REPORT_PARAMS) back.delete(name);
  const removed = (answer: { message: string }) =>
    redirectWithSuccess(context, back.size ? `${here}?${back}` : here, answer.message);
  // Only the import carries a file: a post over the cap is one, refused before its fields are read.
  switch (formData === "too large" ? "import" : intentOf(formData, ["import", "remove", "removeBatch"])) {
    case "import":
      return formAction(formData, {
        form: "stock-import",
        schema: stockImportSchema,
        tooLarge: { file: FILE_TOO_LARGE },
        call: async ({ file, text, label }) => {
          const lines = file ? await fileText(file) : (text ?? "");
          if (lines === null) return { ok: false, status: 400, message: NOT_UTF8, errors: { file: [NOT_UTF8] } };
          return importStock(context, request, optionId, { text: lines, label });
        },
        done: (answer) => redirectWithSuccess(context, `${here}?${reportSearch(answer.payload)}`, answer.message),
      });
    case "remove":
      return formAction(formData, {
        form: "stock-remove",
        schema: stockRemoveSchema,
        fields: [],
        call: ({ accounts }) => removeStock(context, request, optionId, { accounts }),
        done: removed,
      });
    case "removeBatch":
      return formAction(formData, {
        form: "stock-remove-batch",
        schema: stockRemoveBatchSchema,
        fields: [],
        call: ({ batchLabel }) => removeStock(context, request, optionId, { batchLabel }),
        done: removed,
      });
  }
}

export default function OptionStockPage() {
  const { query, stock, report } = useLoaderData<typeof loader>();
  const location = useLocation();
  const { option, batches } = stock;
  const counts = option.stock;
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/stock" className="text-sm font-semibold text-brand-700 underline">
          ← All options
        </Link>
      </p>
      <AdminHeading title={`${option.product.title} — ${option.title}`}>
        {option.seats > 1
          ? `A shared option: each account is sold to ${option.seats} buyers, one seat each.`
          : "A private option: each account is sold to one buyer."}{" "}
        Passwords are not shown here; the export has them.
      </AdminHeading>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:grid-cols-6" data-testid="stock-counts">
        {[
          ["Free seats", counts.free],
          ["Reserved", counts.reserved],
          ["Delivered", counts.delivered],
          ["Replaced", counts.replaced],
          ["Removed", counts.removed],
          ["Accounts", counts.accounts],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-lg font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      {report && <ImportReportPanel report={report} />}
      {/* A new result starts the form afresh (with JS too), so the same lines are not sent twice by mistake; a
          refused import keeps its text to correct. */}
      <ImportForm
        key={report ? location.key : "import"}
        seats={option.seats}
        lastResult={useFormReply("stock-import")?.result}
      />
      <section aria-labelledby="stock-list-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="stock-list-title" className="text-lg font-bold">
            Credentials
          </h2>
          {/* A native post: the answer is a file to save, which a script-driven submission would not download. */}
          <form method="post" action={`/admin/stock/${option._id}/export`}>
            <button type="submit" className={secondaryButtonClass}>
              Export unsold (.txt)
            </button>
          </form>
        </div>
        <CredentialList stock={stock} query={query} result={useFormReply("stock-remove")?.result} />
      </section>
      <RemoveBatchForm batches={batches} result={useFormReply("stock-remove-batch")?.result} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
