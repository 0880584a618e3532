/**
 * Short-lived JSON snapshots of hot public reads (the product list, categories). Every shop visit
 * asks for them and they change only when stock moves, so one load per key and interval serves all
 * callers, and concurrent misses share that one load. Lists may lag stock by at most `ttlMs`;
 * nothing that sells trusts them: reservations re-check stock under row locks.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { expiresAt: number; json: Promise<string> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The JSON text of what `load` answers, loaded at most once per key and interval. */
  json(key: string, load: () => Promise<unknown>): Promise<string> {
    if (this.ttlMs <= 0) return load().then((value) => JSON.stringify(value));
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.json;

    const entry = { expiresAt: now + this.ttlMs, json: load().then((value) => JSON.stringify(value)) };
    this.entries.set(key, entry);
    // A failed load must not be served to the next callers.
    entry.json.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.json;
  }
}
