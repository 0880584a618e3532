import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { scrubText } from "../api/logger";
import { InlineStylesContext } from "./lib/inline-styles";
import { NonceContext } from "./lib/nonce";
import { renderDocument } from "./lib/render-document.server";
import { withUsedStylesOnly } from "./lib/used-styles.server";
import stylesheet from "./styles/app.css?url";

/** Where the built stylesheet is, so server.ts can read it once and hand its text to every document (ADR 033). */
export const stylesheetHref = stylesheet;

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * What a log line may say about a failure: its class, message and stack without ids or emails
 * (an API path in a message can name an order), never the request's body or query, and nothing of
 * a thrown non-Error value.
 */
function describePageError(error: unknown) {
  // Remix wraps its own failures (a POST to a page without an action) in a response with the cause inside.
  const cause = isRouteErrorResponse(error) && "error" in error ? error.error : error;
  if (cause instanceof Error) {
    // The stack's frames only (its first line repeats the message): code locations, which stay whole.
    const frames = cause.stack?.split("\n").filter((line) => line.trimStart().startsWith("at "));
    return { name: cause.name, message: scrubText(cause.message), stack: frames?.join("\n") };
  }
  if (isRouteErrorResponse(cause)) return { name: "ErrorResponse", status: cause.status };
  return { name: typeof cause };
}

/** Loader, action and render errors, through the API's JSON logger with this page request's id. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // The visitor left (or the stream timed out): nothing went wrong on our side.
  if (request.signal.aborted) return;
  // Remix's own 4xx (a post to a page without an action or to no page at all) is a client's mistake, not a
  // failure of ours: one line saying what was refused, without the stack Remix's wrapped error carries.
  if (isRouteErrorResponse(error) && error.status < 500) {
    context.logger.info("page request refused", {
      method: request.method,
      path: scrubText(new URL(request.url).pathname),
      status: error.status,
    });
    return;
  }
  context.logger.error("page error", {
    method: request.method,
    path: scrubText(new URL(request.url).pathname),
    error: describePageError(error),
  });
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const html = await renderDocument(
    <NonceContext.Provider value={nonce}>
      <InlineStylesContext.Provider value={loadContext.settings.inlineStylesheet}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </InlineStylesContext.Provider>
    </NonceContext.Provider>,
    {
      nonce,
      timeoutMs: ABORT_DELAY + 1_000,
      onError(error, afterShell) {
        responseStatusCode = 500;
        // Errors before the shell reach handleError through Remix; log the later ones here.
        if (afterShell) {
          loadContext.logger.error("page render error", {
            path: scrubText(new URL(request.url).pathname),
            error: describePageError(error),
          });
        }
      },
    },
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(withUsedStylesOnly(html, loadContext.settings.inlineStylesheet), {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}
