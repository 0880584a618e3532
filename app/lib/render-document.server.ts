import { PassThrough } from "node:stream";
import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";

type RenderOptions = {
  nonce: string;
  /** Every render error; `afterShell` when the shell was out already (a part failed; the document is still answered). */
  onError: (error: unknown, afterShell: boolean) => void;
  /** After this long, whatever is still pending is given up: the parts left are rendered for the client to fill in. */
  timeoutMs: number;
};

/** The size of the buffers React 18's Node renderer fills with encoded text before it sends one. */
const REACT_VIEW_BYTES = 2048;

/**
 * React 18.3's Node renderer has a flaw (react#26228, fixed in React 19 only): when a multi-byte character (the "·"
 * of an order label) does not fit the rest of its 2,048-byte buffer, it sends the whole buffer, the 1 to 3 bytes it
 * never wrote included: zeros, a NUL in the page (issue 38). Those bytes are cut here, where they leave React. A page
 * never writes U+0000 itself (the API refuses it in every text; PostgreSQL cannot even store it), so a full buffer's
 * trailing zeros are always unwritten ones. The web-streams renderer has no such flaw but costs 1.75 times the CPU
 * (ADR 055).
 */
function writtenBytesOf(chunk: Buffer): Buffer {
  if (chunk.length !== REACT_VIEW_BYTES) return chunk;
  let end = chunk.length;
  while (end > chunk.length - 3 && chunk[end - 1] === 0) end--;
  return end === chunk.length ? chunk : chunk.subarray(0, end);
}

/**
 * Renders a whole document, every lazy part resolved, into one buffer: the compressor and the socket then take one
 * large write, not hundreds of small ones (issue 27), and a visitor without JavaScript gets every part in place
 * (a streamed part would need a script to move it; ADR 032).
 */
export function renderDocument(element: ReactElement, { nonce, onError, timeoutMs }: RenderOptions) {
  return new Promise<ReturnType<typeof Buffer.concat>>((resolve, reject) => {
    let afterShell = false;
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onShellReady() {
        afterShell = true;
      },
      onAllReady() {
        const rendered = new PassThrough();
        const chunks: Buffer[] = [];
        rendered.on("data", (chunk: Buffer) => chunks.push(writtenBytesOf(chunk)));
        rendered.on("end", () => {
          clearTimeout(giveUp);
          resolve(Buffer.concat(chunks));
        });
        rendered.on("error", reject);
        pipe(rendered);
      },
      onShellError(error: unknown) {
        clearTimeout(giveUp);
        reject(error);
      },
      onError: (error) => onError(error, afterShell),
    });
    const giveUp = setTimeout(abort, timeoutMs);
  });
}
