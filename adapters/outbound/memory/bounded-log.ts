/**
 * An append-only log held in memory with a size and an age limit: the oldest entries fall off once there
 * are `max` of them or once they are older than `ttlMs`. For what memory mode records only to be read back
 * (the share outbox, the records' notification events), so a long-running demo cannot grow without end.
 */
export class BoundedLog<T> {
  private readonly entries: { readonly at: number; readonly value: T }[] = [];
  private head = 0;

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(max >= 1) || !(ttlMs > 0)) throw new Error('BoundedLog needs max >= 1 and ttlMs > 0');
  }

  push(value: T): void {
    this.entries.push({ at: this.now(), value });
    this.prune();
  }

  /** The entries still held, oldest first. */
  get items(): readonly T[] {
    this.prune();
    return this.entries.slice(this.head).map((e) => e.value);
  }

  get size(): number {
    this.prune();
    return this.entries.length - this.head;
  }

  private prune(): void {
    const oldest = this.now() - this.ttlMs;
    while (
      this.entries.length - this.head > this.max ||
      (this.head < this.entries.length && this.entries[this.head]!.at < oldest)
    )
      this.head++;
    // Compact now and then, so dropped entries are released without shifting on every push.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
  }
}
