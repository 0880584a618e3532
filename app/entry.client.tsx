import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The server's HTML is the page (everything works without JavaScript): let the browser paint it first, then
// hydrate. On a slow phone hydration is the longest task of the load, and it no longer delays the first paint.
requestAnimationFrame(() => setTimeout(hydrate, 0));
