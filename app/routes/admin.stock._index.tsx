import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  AdminHeading,
  AdminTable,
  Pager,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { listStockOptions } from "~/lib/admin-stock.server";

export const meta: MetaFunction = () => [{ title: "Stock | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  return { search, list: await listStockOptions(context, request, { page: pageFrom(url), search }) };
}

export default function StockOptionsPage() {
  const { search, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Stock">
        Every option of every product with its free seats (what the shop sells). Open an option to import credentials,
        see each one&apos;s state, remove or export unsold ones.
      </AdminHeading>
      <Form method="get" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="stock-search" className="text-sm font-semibold">
            Product or option
          </label>
          <input
            id="stock-search"
            name="search"
            type="search"
            defaultValue={search}
            maxLength={200}
            placeholder="part of the title"
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>
      {list.records.length === 0 ? (
        <p className="text-slate-600">{search ? "No option matches." : "There are no options yet."}</p>
      ) : (
        <AdminTable label="Options and their stock">
          <thead>
            <tr>
              <th className={th}>Product</th>
              <th className={th}>Option</th>
              <th className={th}>Seats per account</th>
              <th className={th}>Free seats</th>
              <th className={th}>Reserved</th>
              <th className={th}>Sold</th>
              <th className={th}>Accounts</th>
            </tr>
          </thead>
          <tbody>
            {list.records.map((option) => (
              <tr key={option._id}>
                <td className={`${td} break-words`}>
                  {option.product.title}
                  {!option.product.active && <span className="block text-xs text-slate-600">hidden</span>}
                  {option.product.fulfilMode === "manual" && (
                    <span className="block text-xs text-slate-600">manual delivery: no stock used</span>
                  )}
                </td>
                <td className={td}>
                  <Link
                    to={`/admin/stock/${option._id}`}
                    className="font-semibold text-brand-700 underline"
                    aria-label={`Stock of ${option.product.title} — ${option.title}`}
                  >
                    {option.title}
                  </Link>
                  {!option.active && <span className="block text-xs text-slate-600">hidden</span>}
                </td>
                <td className={td}>{option.seats}</td>
                <td className={td}>
                  {option.stock.free}
                  {option.low && (
                    <span className="ml-1 rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900">low</span>
                  )}
                </td>
                <td className={td}>{option.stock.reserved}</td>
                <td className={td}>{option.stock.delivered + option.stock.replaced}</td>
                <td className={td}>{option.stock.accounts}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager label="Option pages" pager={list.pager} href={(page) => pageHref("/admin/stock", { search }, page)} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
