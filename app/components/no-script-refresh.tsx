import { useMatches } from "@remix-run/react";

/** A reload after `seconds` to `url`, for visitors without JavaScript. */
export type NoScriptRefreshTarget = { seconds: number; url: string };

/** A route whose page should reload itself without JavaScript names it in its handle, from its data. */
export type NoScriptRefreshHandle = { noScriptRefresh?: (data: unknown) => NoScriptRefreshTarget | null };

/**
 * For <head>: a meta refresh wrapped in <noscript>, which browsers act on only with scripts off, so a
 * page that polls with JavaScript never reloads twice. (React renders no children of a <noscript> on
 * the client, so client-side navigation adds nothing either.)
 */
export function NoScriptRefresh({ always = false }: { always?: boolean }) {
  const matches = useMatches();
  const target = matches
    .map((match) => (match.handle as NoScriptRefreshHandle | undefined)?.noScriptRefresh?.(match.data))
    .find((candidate) => candidate != null);
  if (!target) return null;
  // In Lite mode no script polls, whether or not the browser runs them: refresh plainly.
  if (always) return <meta httpEquiv="refresh" content={`${target.seconds};url=${target.url}`} />;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${target.seconds};url=${target.url}`} />
    </noscript>
  );
}
