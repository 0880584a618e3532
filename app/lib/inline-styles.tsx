import { createContext, useContext } from "react";

/*
 * The production build puts the site's stylesheet inside each document instead of linking it: on a phone's
 * slow network the linked file was the one request standing between the HTML and the first paint (a round
 * trip, sharing the line with the scripts). entry.server.tsx reads the built file once and hands its text
 * here; the browser never needs it again, so the hydrated <style> keeps what the server wrote (ADR 033).
 */
export const InlineStylesContext = createContext<string | null>(null);

export function InlineStyles({ nonce }: { nonce: string }) {
  const css = useContext(InlineStylesContext);
  // suppressHydrationWarning: the browser renders it empty and React keeps the server's text.
  return <style nonce={nonce || undefined} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css ?? "" }} />;
}
