/**
 * Short-lived snapshots of hot public reads (the product list, categories). Every shop visit
 * asks for them and they change only when stock moves, so one load per key and interval serves all
 * callers, and concurrent misses share that one load. Lists may lag stock by at most `ttlMs`;
 * nothing that sells trusts them: reservations re-check stock under row locks.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether a snapshot serves more than one caller: when not, its answer is worth no stored compression. */
  get keepsAnswers(): boolean {
    return this.ttlMs > 0;
  }

  /** What `load` answers, loaded at most once per key and interval. One key, one type of value. */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value as Promise<T>;

    const entry = { expiresAt: now + this.ttlMs, value: load() };
    this.entries.set(key, entry);
    // A failed load must not be served to the next callers.
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  /** Forgets every snapshot: this process shows a catalogue change at once (others within `ttlMs`). */
  clear(): void {
    this.entries.clear();
  }
}
