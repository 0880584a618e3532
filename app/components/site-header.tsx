import { Link, NavLink, useLocation } from "@remix-run/react";
import { type ReactNode, useEffect, useRef } from "react";
import { AccountMenu, type HeaderAccount, tabClass } from "./account/account-menu";
import { Logo } from "./logo";

const navigation = [
  { to: "/shop", label: "Shop" },
  { to: "/feedback", label: "Feedback" },
  { to: "/find-order", label: "Find Order" },
];

function GuestLinks() {
  return (
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
  );
}

function NavigationLinks() {
  return navigation.map((item) => (
    <NavLink key={item.to} to={item.to} className={tabClass}>
      {item.label}
    </NavLink>
  ));
}

function CartLink({ count, href, onIntent }: { count: number; href: string; onIntent?: () => void }) {
  return (
    <Link
      to={href}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      onTouchStart={onIntent}
      preventScrollReset
      aria-label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
      className="relative rounded-md p-2 text-slate-700 hover:bg-slate-100"
    >
      <LineIcon>
        <path
          d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L21 8H6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="10" cy="20.5" r="1.2" />
        <circle cx="17" cy="20.5" r="1.2" />
      </LineIcon>
      <span
        data-testid="cart-count"
        className="absolute -top-1 -right-1 grid min-w-5 place-items-center rounded-full bg-brand-600 px-1 text-xs font-bold text-white"
      >
        {count}
      </span>
    </Link>
  );
}

/** The frame of the header's line icons (the cart, the menu): 24 px, drawn in the text's colour. */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

/**
 * Below the lg breakpoint every link but the logo and the cart moves into a <details> menu, so the header fits
 * a 360 px phone and every link stays reachable without JavaScript. With JS the menu also closes after a
 * navigation, on Escape and on a click outside it.
 */
function PhoneMenu({ account }: { account: HeaderAccount | null }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location]);
  useEffect(() => {
    const closeFromOutside = (event: Event) => {
      const element = menu.current;
      if (!element?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !element.contains(event.target as Node)) {
        element.open = false;
      }
    };
    document.addEventListener("click", closeFromOutside);
    document.addEventListener("keydown", closeFromOutside);
    return () => {
      document.removeEventListener("click", closeFromOutside);
      document.removeEventListener("keydown", closeFromOutside);
    };
  }, []);

  return (
    <details ref={menu} className="group relative lg:hidden">
      <summary
        aria-label="Menu"
        className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
      >
        <LineIcon>
          <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" className="group-open:hidden" />
          <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" className="hidden group-open:block" />
        </LineIcon>
        Menu
      </summary>
      <div className="absolute top-full right-0 z-50 mt-2 flex w-64 max-w-[calc(100vw-2rem)] flex-col gap-1 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <nav aria-label="Main" className="flex flex-col gap-1">
          <NavigationLinks />
        </nav>
        <div className="flex flex-col gap-1 border-t border-slate-100 pt-1">
          {account ? <AccountMenu account={account} inMenu /> : <GuestLinks />}
        </div>
      </div>
    </details>
  );
}

/** The header: `account` when signed in, else Sign In / Create Account; `cartHref` opens the side cart panel over the current page. */
export function SiteHeader({
  account,
  cartCount,
  cartHref,
  onCartIntent,
}: {
  account: HeaderAccount | null;
  cartCount: number;
  cartHref: string;
  /** Called when the visitor may be about to open the cart: the panel's code starts loading. */
  onCartIntent?: () => void;
}) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-x-6 px-4 py-3">
        <Logo />
        <nav aria-label="Main" className="hidden gap-1 lg:flex">
          <NavigationLinks />
        </nav>
        <div className="ml-auto flex items-center justify-end gap-1">
          <div className="hidden items-center gap-1 lg:flex">
            {account ? <AccountMenu account={account} /> : <GuestLinks />}
          </div>
          <CartLink count={cartCount} href={cartHref} onIntent={onCartIntent} />
          <PhoneMenu account={account} />
        </div>
      </div>
    </header>
  );
}
