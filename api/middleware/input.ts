import type { Context, MiddlewareHandler } from "hono";
import type { ApiEnv } from "../context";
import { badRequest } from "../errors";

/** C0 controls except tab, newline and carriage return, and DEL: no text field of ours holds them. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Half of a UTF-16 pair without its other half: not text, and no database or encoder takes it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * C1 controls and the Unicode line and paragraph separators: invisible, and a break to some readers (a mail
 * client, a terminal, JavaScript's trim) but not to others, so one value could show as two. No field holds them.
 */
const INVISIBLE_BREAK = /[\u0080-\u009F\u2028\u2029]/;
const REFUSED = "Must not contain control characters or invalid Unicode";

/** What no database or encoder takes: refused even in text that a route reads line by line. */
const unencodable = (text: string) => CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text);
const unsafe = (text: string) => unencodable(text) || INVISIBLE_BREAK.test(text);

/** A name safe to echo back: the offending characters themselves are replaced. */
const printable = (name: string) =>
  name.replace(
    new RegExp(`${CONTROL_CHARACTER.source}|${LONE_SURROGATE.source}|${INVISIBLE_BREAK.source}`, "g"),
    "\uFFFD",
  );

function refuse(field: string): never {
  const name = printable(field) || "body";
  throw badRequest(`${name}: ${REFUSED}`, { [name]: [REFUSED] });
}

/**
 * Refuses the first string (key or value) anywhere in a parsed JSON value that holds a refused character.
 * Walked with a list of its own, not by recursion: however deep a value nests, the call stack stays flat.
 */
function checkValue(root: unknown, lineByLineField?: string): void {
  if (lineByLineField && root !== null && typeof root === "object" && !Array.isArray(root)) {
    // The route reads this field a line at a time and reports each bad line by its number.
    const { [lineByLineField]: lines, ...rest } = root as Record<string, unknown>;
    if (typeof lines === "string" && unencodable(lines)) refuse(lineByLineField);
    if (typeof lines !== "string" && lines !== undefined) rest[lineByLineField] = lines;
    root = rest;
  }
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (unsafe(value)) refuse(path.join("."));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], path: [...path, String(index)] });
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (const [key] of entries) if (unsafe(key)) refuse([...path, key].join("."));
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, inner] = entries[index];
        pending.push({ value: inner, path: [...path, key] });
      }
    }
  }
}

/** The deepest a JSON body may nest arrays and objects: no input of ours needs more than a few levels. */
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP = `The request body must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether a JSON text nests deeper than MAX_JSON_DEPTH, read in one pass over its characters (brackets inside
 * strings do not count). It runs before anything parses or walks the body: the validators, a log line and
 * JSON.stringify all recurse, and a few thousand levels exhaust the stack ("Maximum call stack size exceeded").
 */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path segments, named by the route's `:param` where the matched route has one there. */
function checkPath(c: Context<ApiEnv>): void {
  const pattern = c.req.matchedRoutes.at(-1)?.path.split("/") ?? [];
  c.req.path.split("/").forEach((segment, index) => {
    if (!unsafe(decoded(segment))) return;
    const name = pattern[index]?.startsWith(":") ? pattern[index].slice(1).replace(/\{.*$/, "") : "path";
    refuse(name);
  });
}

const NO_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The edge of every /v1 request, before any route runs:
 * - a control character (C0, DEL, C1), a Unicode line or paragraph separator or a lone surrogate in a path segment, a query value or anywhere in the body
 *   answers 400 naming the field: such text is never valid input, and PostgreSQL refuses NUL with a 500;
 * - a JSON body nesting arrays and objects more than MAX_JSON_DEPTH levels deep answers 400 before it is parsed;
 * - a JSON body is parsed once (empty counts as `{}`, anything unparsable is a 400) and handed to the
 *   routes' validators. Bodies under `rawBodyUnder` are only checked: their routes read the exact bytes
 *   (webhook signatures cover them) with `c.req.text()`;
 * - the `field` of a body on a `lineByLine` route is text its route reads a line at a time: a C1 control or a
 *   Unicode separator in it is left to that route, which names the line it is on (a stock import's line).
 */
export function checkInput(options: {
  rawBodyUnder: string;
  lineByLine?: { path: RegExp; field: string };
}): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    checkPath(c);
    for (const [name, values] of Object.entries(c.req.queries())) {
      if (unsafe(name)) refuse(name);
      for (const value of values) if (unsafe(value)) refuse(name);
    }
    if (!NO_BODY.has(c.req.method)) {
      const text = await c.req.text();
      if (nestsTooDeep(text)) throw badRequest(TOO_DEEP);
      if (c.req.path.startsWith(options.rawBodyUnder)) {
        checkRawBody(text);
      } else {
        let body: unknown;
        try {
          body = text.trim() === "" ? {} : JSON.parse(text);
        } catch {
          throw badRequest("The request body must be valid JSON");
        }
        const { lineByLine } = options;
        checkValue(body, lineByLine?.path.test(c.req.path) ? lineByLine.field : undefined);
        c.req.bodyCache.json = Promise.resolve(body);
      }
    }
    await next();
  };
}

/** A provider's body: its JSON fields when it is JSON, else the text itself. */
function checkRawBody(text: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (unsafe(text)) refuse("body");
    return;
  }
  checkValue(body);
}
