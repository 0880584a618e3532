type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Keys whose values never reach a log line, wherever they appear. */
const SECRET_KEYS = /password|token|secret|authorization|cookie|^otp$|^key$|^creds?$|captcha/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEYS.test(key) ? "[redacted]" : redact(inner, depth + 1)]),
  );
}

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void>;

/**
 * A 22-character public id (whoever has an order's or a payment's may use it) or an email address.
 * An address starts where a run of its characters starts: tried at every position instead, a long
 * path without an "@" took quadratic time (16 KB: a second; 1 MB: hours).
 */
const ID_OR_EMAIL = /(?<![\w.+%-])[\w.+%-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|(?<![\w-])[\w-]{22}(?![\w-])/g;

/** Free text for a log line (a path, an error's message) with public ids and email addresses taken out. */
export function scrubText(text: string): string {
  return text.replace(ID_OR_EMAIL, (match) => (match.includes("@") ? "[email]" : "[id]"));
}

/** The same logger with fields that every line carries (a request's id). */
export function withFields(logger: Logger, fixed: Record<string, unknown>): Logger {
  const bind = (write: Logger[Level]) => (message: string, fields?: Record<string, unknown>) =>
    write(message, { ...fixed, ...fields });
  return { debug: bind(logger.debug), info: bind(logger.info), warn: bind(logger.warn), error: bind(logger.error) };
}

/** One JSON object per line on stdout/stderr, which any log collector reads. */
export function createLogger(level: Level | "silent" = "info"): Logger {
  const write = (at: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, message, ...(redact(fields) as object) });
    (at === "error" || at === "warn" ? process.stderr : process.stdout).write(line + "\n");
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
