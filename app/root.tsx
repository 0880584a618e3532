import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { CartContents } from "./components/cart-contents";
import { RouteDialog } from "./components/dialog";
import { GeneralErrorBoundary } from "./components/error-screens";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { Toaster } from "./components/toaster";
import { type CartQuote, loadQuotedCart, readCartItems } from "./lib/cart.server";
import { withCartPanel } from "./lib/cart-client";
import { listSocialLinks } from "./lib/catalogue.server";
import { useNonce } from "./lib/nonce";
import { readToast } from "./lib/toast.server";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/site.webmanifest" },
];

/** Routes set `handle.hideChrome` to hide the header and footer (landing, legal pages). */
export type RouteHandle = { hideChrome?: boolean };

/** The page that is also the cart: it shows the cart itself, never the side panel. */
const CART_PAGE = "/cart";

/**
 * Kept cheap because every page runs it: social links, the cart count read from the cookie, the flash
 * toast; the cart is quoted only when the side panel is open (?cart=open).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const panelOpen = url.searchParams.get("cart") === "open" && url.pathname !== CART_PAGE;
  const headers = new Headers();

  const [socialLinks, { toast, headers: toastHeaders }, cookieCart] = await Promise.all([
    listSocialLinks(context),
    readToast(request),
    readCartItems(request),
  ]);
  toastHeaders?.forEach((value, name) => headers.append(name, value));

  let cartCount = cookieCart.items.length;
  let cartPanel: { quote: CartQuote | null } | null = null;
  if (panelOpen) {
    try {
      const { quote, setCookie } = await loadQuotedCart(context, request);
      if (setCookie) headers.append("Set-Cookie", setCookie);
      cartCount = quote.cartItems.length;
      cartPanel = { quote };
    } catch (error) {
      console.error(error);
      cartPanel = { quote: null };
    }
  } else if (cookieCart.replaceHeader) {
    headers.append("Set-Cookie", cookieCart.replaceHeader);
  }

  return data({ socialLinks, cartCount, cartPanel, toast }, { headers });
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-slate-50 text-ink antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { socialLinks, cartCount, cartPanel, toast } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const location = useLocation();
  const hideChrome = matches.some((match) => (match.handle as RouteHandle | undefined)?.hideChrome);
  const here = location.pathname + location.search;
  const onCartPage = location.pathname === CART_PAGE;
  const panelShown = cartPanel !== null && !onCartPage;

  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[70] focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      {!hideChrome && (
        <SiteHeader cartCount={cartCount} cartHref={onCartPage ? CART_PAGE : withCartPanel(here, true)} />
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      {!hideChrome && <SiteFooter socialLinks={socialLinks} />}
      {panelShown && (
        <RouteDialog title="Your Cart" closeHref={withCartPanel(here, false)} closeLabel="Close cart" placement="right">
          <Toaster toast={toast} inline />
          <CartContents quote={cartPanel?.quote ?? null} redirectTo={withCartPanel(here, true)} />
        </RouteDialog>
      )}
      {!panelShown && <Toaster toast={toast} />}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
