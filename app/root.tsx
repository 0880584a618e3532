import { data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, type ReactNode, Suspense } from "react";
import type { HeaderAccount } from "./components/account/account-menu";
import { loadCheckoutPanel } from "./lib/checkout.server";
import { GeneralErrorBoundary } from "./components/error-screens";
import { NoScriptRefresh, type NoScriptRefreshHandle } from "./components/no-script-refresh";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { Toaster } from "./components/toaster";
import { cartFor } from "./lib/cart.server";
import { withCartPanel } from "./lib/cart-client";
import { listSocialLinks } from "./lib/catalogue.server";
import { InlineStyles } from "./lib/inline-styles";
import { useNonce } from "./lib/nonce";
import { cookiesOf } from "./lib/cookies.server";
import { clearedSessionCookies, getCurrentProfile, headersWithCookies, sessionToken } from "./lib/session.server";
import { liteModeOf } from "./lib/lite.server";
import { readToast } from "./lib/toast.server";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  // Production documents carry the stylesheet inline (ADR 033); the dev server links it.
  ...(import.meta.env.PROD ? [] : [{ rel: "stylesheet", href: stylesheet }]),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/site.webmanifest" },
];

/**
 * Routes set `handle.hideChrome`: `true` hides the header and footer (legal pages, the sandbox payment page),
 * "footer" the footer only (the landing page has its own, and keeps the header: sign in, cart, Find Order).
 */
export type RouteHandle = { hideChrome?: boolean | "footer" } & NoScriptRefreshHandle;

/** The page that is also the cart: it shows the cart itself, never the side panel. */
const CART_PAGE = "/cart";

/** The side cart's code (lines, checkout, its forms) loads when the panel opens, or on the cart link's hover (ADR 032). */
const loadCartPanel = () => import("./components/cart-panel");
const CartPanel = lazy(loadCartPanel);

/**
 * Kept cheap because every page runs it: social links, the cart count read from the cookie, the flash
 * toast; the cart is quoted only when the side panel is open (?cart=open). With a token cookie it also
 * reads the profile (the header's balance) and the server cart (its count), side by side.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const panelOpen = url.searchParams.get("cart") === "open" && url.pathname !== CART_PAGE;
  const headers = new Headers();
  const token = await sessionToken(request, context);
  const storeCart = cartFor(request, context);

  const [socialLinks, { toast, headers: toastHeaders }, cookieCart, profile, cart] = await Promise.all([
    listSocialLinks(context),
    readToast(request, context),
    storeCart.cookieLines(),
    token ? getCurrentProfile(request, context) : null,
    panelOpen || token
      ? storeCart.read().catch((error: unknown) => {
          context.logger.warn("cart could not be loaded", { error });
          return null;
        })
      : undefined,
  ]);
  // A session the API no longer accepts (expired, revoked, unreadable): drop it and start again from the home page.
  if (cookiesOf(context).token.sent(request) && !profile) {
    throw redirect("/", { headers: headersWithCookies(await clearedSessionCookies(context)) });
  }
  toastHeaders?.forEach((value, name) => headers.append(name, value));

  let cartCount = cookieCart.items.length;
  if (cart) {
    cart.headers.forEach((value, name) => headers.append(name, value));
    cartCount = cart.quote.cartItems.length;
  } else {
    for (const setCookie of cookieCart.setCookies) headers.append("Set-Cookie", setCookie);
  }
  const checkout = panelOpen && cart ? await loadCheckoutPanel(context, request, cart.quote) : null;
  const cartPanel = panelOpen ? { quote: cart?.quote ?? null, checkout } : null;
  const account: HeaderAccount | null = profile && { username: profile.username, balance: profile.balance };

  const lite = await liteModeOf(request, context);
  // The footer's year, the server's: the same on the page and in the hydrated one.
  const year = new Date().getUTCFullYear();
  return data({ socialLinks, cartCount, cartPanel, toast, account, lite, year }, { headers });
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Lite mode sends no script at all; an error page without the root's data keeps them.
  const lite = useRouteLoaderData<typeof loader>("root")?.lite.on ?? false;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <NoScriptRefresh always={lite} />
        {import.meta.env.PROD && <InlineStyles nonce={nonce} />}
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-slate-50 text-ink antialiased">
        {children}
        {!lite && <ScrollRestoration nonce={nonce} />}
        {!lite && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  const { socialLinks, cartCount, cartPanel, toast, account, lite, year } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const location = useLocation();
  const hidden = matches.map((match) => (match.handle as RouteHandle | undefined)?.hideChrome).find(Boolean);
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
      {hidden !== true && (
        <SiteHeader
          account={account}
          cartCount={cartCount}
          cartHref={onCartPage ? CART_PAGE : withCartPanel(here, true)}
          onCartIntent={loadCartPanel}
        />
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      {!hidden && (
        <SiteFooter socialLinks={socialLinks} loggedIn={account !== null} lite={lite} here={here} year={year} />
      )}
      {panelShown && (
        <Suspense fallback={null}>
          <CartPanel panel={cartPanel} here={here} />
        </Suspense>
      )}
      <Toaster toast={toast} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
