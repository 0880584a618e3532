import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/** Spec section 9: the copy confirmation resets after 3 s. */
export const COPIED_RESET_MS = 3_000;

async function copyText(text: string, input: HTMLTextAreaElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an http page other than localhost, an old browser): copy the selected input.
    if (!input) return false;
    input.select();
    return document.execCommand("copy");
  }
}

/** Rows for browsers without `field-sizing: content`, at the narrowest width a credential gets (about 24 characters). */
const fallbackRows = (value: string) => Math.min(8, Math.max(1, Math.ceil(value.length / 24)));

/**
 * A credential row. The value sits in a read-only text area that wraps anywhere and grows with its text, so a
 * long username or password is always readable in full on a phone, and selectable without JavaScript;
 * the Copy button appears only after hydration, since it could do nothing before.
 */
export function CopyField({ label, value }: { label: string; value: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function copy() {
    if (!(await copyText(value, input.current))) return;
    setCopied(true);
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
  }

  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</span>
      <div className="flex items-start gap-2">
        <textarea
          ref={input}
          readOnly
          value={value}
          rows={fallbackRows(value)}
          aria-label={label}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 resize-none rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 font-mono text-sm break-all [field-sizing:content]"
        />
        {hydrated && (
          <button
            type="button"
            onClick={copy}
            aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
            className="w-20 shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
          >
            <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
          </button>
        )}
      </div>
    </div>
  );
}
