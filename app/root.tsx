import type { LinksFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "@remix-run/react";
import type { ReactNode } from "react";
import { useNonce } from "./lib/nonce";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

/** Routes set `handle.hideChrome` to hide the header and footer (landing, legal pages). */
export type RouteHandle = { hideChrome?: boolean };

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
      <body className="min-h-screen bg-slate-50 text-ink antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const matches = useMatches();
  const hideChrome = matches.some((match) => (match.handle as RouteHandle | undefined)?.hideChrome);
  return (
    <>
      {!hideChrome && <header className="p-4 font-semibold">Store</header>}
      <Outlet />
    </>
  );
}
