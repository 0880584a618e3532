import type { ReactNode } from "react";

/** One column of a storefront table: its heading and its cell, with the cell's extra classes (fixed or per row). */
export type TableColumn<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  align?: "right";
  className?: string | ((row: Row) => string);
  /** Left out below the sm breakpoint, so the columns that matter fit a phone without a sideways scroll. */
  phoneHidden?: boolean;
};

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

/**
 * A storefront table (the dashboard's orders, the balance history) in a white box. Wider than a phone, it scrolls
 * inside its own box; `minWidth` is the Tailwind class of the width it needs.
 */
export function DataTable<Row extends { _id: string }>({
  rows,
  columns,
  minWidth,
  testId,
  boxTestId,
}: {
  rows: Row[];
  columns: TableColumn<Row>[];
  minWidth: string;
  testId: string;
  boxTestId?: string;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white" data-testid={boxTestId}>
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                className={classes(
                  "px-4 py-2",
                  column.align === "right" && "text-right",
                  column.phoneHidden && "hidden sm:table-cell",
                )}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row._id} className="border-t border-slate-100">
              {columns.map(({ header, cell, align, className, phoneHidden }) => (
                <td
                  key={header}
                  className={classes(
                    "px-4 py-2",
                    align === "right" && "text-right",
                    phoneHidden && "hidden sm:table-cell",
                    typeof className === "function" ? className(row) : className,
                  )}
                >
                  {cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
