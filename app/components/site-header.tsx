import { Link, NavLink } from "@remix-run/react";
import { AccountMenu, type HeaderAccount } from "./account/account-menu";
import { Logo } from "./logo";

const navigation = [
  { to: "/shop", label: "Shop" },
  { to: "/feedback", label: "Feedback" },
  { to: "/find-order", label: "Find Order" },
];

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
  }`;

/** The header: `account` when signed in, else Sign In / Create Account; `cartHref` opens the side cart panel over the current page. */
export function SiteHeader({
  account,
  cartCount,
  cartHref,
}: {
  account: HeaderAccount | null;
  cartCount: number;
  cartHref: string;
}) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Logo />
        <nav aria-label="Main" className="flex flex-wrap gap-1">
          {navigation.map((item) => (
            <NavLink key={item.to} to={item.to} className={tabClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1">
          {account ? (
            <AccountMenu account={account} />
          ) : (
            <>
              <NavLink to="/login" className={tabClass}>
                Sign In
              </NavLink>
              <Link
                to="/signup"
                className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
              >
                Create Account
              </Link>
            </>
          )}
          <Link
            to={cartHref}
            preventScrollReset
            aria-label={`Cart, ${cartCount} ${cartCount === 1 ? "item" : "items"}`}
            className="relative rounded-md p-2 text-slate-700 hover:bg-slate-100"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path
                d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L21 8H6"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
              <circle cx="10" cy="20.5" r="1.2" />
              <circle cx="17" cy="20.5" r="1.2" />
            </svg>
            <span
              data-testid="cart-count"
              className="absolute -top-1 -right-1 grid min-w-5 place-items-center rounded-full bg-brand-600 px-1 text-xs font-bold text-white"
            >
              {cartCount}
            </span>
          </Link>
        </div>
      </div>
    </header>
  );
}
