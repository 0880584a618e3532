/**
 * The store's announcement. Dismissing posts a small form (a cookie remembers it, so it works
 * without JavaScript); with JavaScript the banner just hides, without a round trip.
 */
export function AnnouncementBanner({
  text,
  dismissKey,
  onDismiss,
}: {
  text: string;
  dismissKey: string;
  onDismiss: () => void;
}) {
  return (
    <aside
      aria-label="Announcement"
      className="mx-auto mb-8 flex w-full max-w-3xl items-start gap-3 rounded-2xl border border-emerald-300/40 bg-emerald-950/60 p-4 text-left text-emerald-50 shadow-lg"
    >
      <span
        aria-hidden="true"
        className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-emerald-400 text-sm font-bold text-emerald-950"
      >
        ✓
      </span>
      <p className="flex-1 text-sm leading-relaxed sm:text-base">{text}</p>
      <form
        method="post"
        action="/?index"
        onSubmit={(event) => {
          event.preventDefault();
          onDismiss();
        }}
      >
        <input type="hidden" name="intent" value="dismiss-announcement" />
        <input type="hidden" name="announcement" value={dismissKey} />
        <button
          type="submit"
          aria-label="Dismiss announcement"
          className="grid size-8 place-items-center rounded-full text-xl leading-none text-emerald-50 hover:bg-emerald-50/10"
        >
          <span aria-hidden="true">×</span>
        </button>
      </form>
    </aside>
  );
}
