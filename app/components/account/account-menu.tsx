import { Form, NavLink } from "@remix-run/react";
import { formatUsd } from "~/lib/money";

export type HeaderAccount = { username: string; balance: number };

export const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`;

/**
 * The signed-in part of the header: Dashboard, Tickets, the balance, settings and a logout button (a POST form).
 * `inMenu` is the copy in the phone menu: the same links, without the test id the wide header's balance carries.
 */
export function AccountMenu({ account, inMenu = false }: { account: HeaderAccount; inMenu?: boolean }) {
  return (
    <>
      <NavLink to="/dashboard" className={tabClass}>
        Dashboard
      </NavLink>
      <NavLink to="/tickets" className={tabClass}>
        Tickets
      </NavLink>
      <NavLink to="/balance" className={tabClass} aria-label={`Balance ${formatUsd(account.balance)}`}>
        <span data-testid={inMenu ? undefined : "header-balance"} className="font-semibold tabular-nums">
          {formatUsd(account.balance)}
        </span>
      </NavLink>
      <NavLink to="/settings" className={tabClass} title={`Settings for ${account.username}`}>
        Settings
      </NavLink>
      <Form method="post" action="/logout">
        <button
          type="submit"
          className="w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          Log out
        </button>
      </Form>
    </>
  );
}
