import { createContext, useContext } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import stylesheet from "../styles/app.css?url";

/*
 * The production build puts the site's stylesheet inside each document instead of linking it: on a phone's
 * slow network the linked file was the one request standing between the HTML and the first paint (a round
 * trip, sharing the line with the scripts). entry.server.tsx reads the built file once and hands its text
 * here; the hydrated <style> keeps what the server wrote (ADR 033). The server then cuts that copy to the rules
 * the document's markup uses (used-styles.server.ts, ADR 059), so once hydrated the page links the whole file
 * (cached after the first page) for what it shows later: a dialog, the cart panel, the next page.
 */
export const InlineStylesContext = createContext<string | null>(null);

export function InlineStyles({ nonce }: { nonce: string }) {
  const css = useContext(InlineStylesContext);
  const hydrated = useHydrated();
  return (
    <>
      {/* suppressHydrationWarning: the browser renders it empty and React keeps the server's text. */}
      <style nonce={nonce || undefined} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css ?? "" }} />
      {hydrated && <link rel="stylesheet" href={stylesheet} />}
    </>
  );
}
