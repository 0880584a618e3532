import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type StockOption, listStockOptions } from "./stock.server";
import { listQuery, listText } from "~/lib/list-query";

export const meta: MetaFunction = () => [{ title: "Stock | Back office" }];

const querySchema = z.object({ search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, list: await listStockOptions(context, request, query) };
}

const note = (text: string) => <span className="block text-xs text-slate-600">{text}</span>;

function ProductCell({ option: { product } }: { option: StockOption }) {
  return (
    <>
      {product.title}
      {!product.active && note("hidden")}
      {product.fulfilMode === "manual" && note("manual delivery: no stock used")}
    </>
  );
}

function OptionCell({ option }: { option: StockOption }) {
  return (
    <>
      <Link
        to={`/admin/stock/${option._id}`}
        className="font-semibold text-brand-700 underline"
        aria-label={`Stock of ${option.product.title} — ${option.title}`}
      >
        {option.title}
      </Link>
      {!option.active && note("hidden")}
    </>
  );
}

const low = <span className="ml-1 rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900">low</span>;

export default function StockOptionsPage() {
  const { query, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Stock">
        Every option of every product with its free seats (what the shop sells). Open an option to import credentials,
        see each one&apos;s state, remove or export unsold ones.
      </AdminHeading>
      <AdminList
        label="Options and their stock"
        pathname="/admin/stock"
        query={query}
        filters={[{ name: "search", label: "Product or option", placeholder: "part of the title" }]}
        empty={["No option matches.", "There are no options yet."]}
        list={list}
        columns={[
          { header: "Product", className: "break-words", cell: (option) => <ProductCell option={option} /> },
          { header: "Option", cell: (option) => <OptionCell option={option} /> },
          { header: "Seats per account", cell: (option) => option.seats },
          {
            header: "Free seats",
            cell: (option) => (
              <>
                {option.stock.free}
                {option.low && low}
              </>
            ),
          },
          { header: "Reserved", cell: (option) => option.stock.reserved },
          { header: "Sold", cell: (option) => option.stock.delivered + option.stock.replaced },
          { header: "Accounts", cell: (option) => option.stock.accounts },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
