import type { ReactElement } from "react";
// React 18.3's Node renderer (renderToPipeableStream) sends zero bytes when a multi-byte character falls at the
// end of its 2,048-byte buffer (react#26228, fixed in React 19 only): the web-streams renderer encodes each text
// before cutting it into buffers, so every byte it sends is one it wrote (issue 38).
import { renderToReadableStream } from "react-dom/server.browser";

type RenderOptions = {
  nonce: string;
  /** Every render error; `afterShell` when the shell was out already (a part failed; the document is still answered). */
  onError: (error: unknown, afterShell: boolean) => void;
  /** After this long, whatever is still pending is given up: the parts left are rendered for the client to fill in. */
  timeoutMs: number;
};

/**
 * Renders a whole document, every lazy part resolved, into one buffer: the compressor and the socket then take one
 * large write, not hundreds of small ones (issue 27), and a visitor without JavaScript gets every part in place
 * (a streamed part would need a script to move it; ADR 032).
 */
export async function renderDocument(element: ReactElement, { nonce, onError, timeoutMs }: RenderOptions) {
  // A timer of our own, cleared once the document is whole: React would still act on an abort after its stream closed.
  const giveUp = new AbortController();
  const timer = setTimeout(() => giveUp.abort(), timeoutMs);
  let afterShell = false;
  try {
    const stream = await renderToReadableStream(element, {
      nonce,
      signal: giveUp.signal,
      onError: (error) => onError(error, afterShell),
    });
    afterShell = true;
    await stream.allReady;
    return Buffer.from(await new Response(stream).arrayBuffer());
  } finally {
    clearTimeout(timer);
  }
}
