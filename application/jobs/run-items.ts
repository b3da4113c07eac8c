import type { GatewayError } from '../../domain/shared/errors.js';
import type { Either } from '../../domain/shared/fp.js';
import type { ItemLedger, ItemOutcome } from '../../ports/job-queue.js';

/** One item's write: `key` is its idempotency mark (as a job), `resumed` says its write may already have happened. */
export type ItemWrite<I, O extends ItemOutcome> = (
  item: I,
  index: number,
  mark: { readonly key?: string; readonly resumed: boolean },
) => Promise<Either<GatewayError, O>>;

/**
 * Writes the items in chunks: all of a chunk at once, the next chunk when the previous one is done. Run as
 * a job (`ledger`), each item is marked started before its write and settled with its chunk, an item a resumed
 * job already settled is not written again, a vendor's quota is waited out, and no new chunk starts once
 * the job is cancelled (the outcomes then list exactly the items written).
 */
export const runItems = async <I, O extends ItemOutcome>(
  items: readonly I[],
  size: number,
  write: ItemWrite<I, O>,
  failed: (index: number, error: GatewayError) => O,
  ledger?: ItemLedger,
): Promise<O[]> => {
  const out: O[] = [];
  if (ledger) await ledger.total(items.length);
  for (let start = 0; start < items.length; start += size) {
    // As a job, a chunk starts on a turn of its own: a store that answers without I/O (memory mode, the
    // embedded SQLite file) would otherwise keep the event loop from serving anything else until the end.
    if (ledger && start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (ledger?.stopped()) break;
    const chunk = items.slice(start, start + size).map((item, i) => ({ item, index: start + i }));
    const previous = chunk.map(({ index }) => ledger?.previous(index));
    await ledger?.start(chunk.filter((_, i) => previous[i] === undefined).map((c) => c.index));
    const written = await Promise.all(
      chunk.map(async ({ item, index }, i): Promise<O> => {
        const before = previous[i];
        if (before?.state === 'settled') return before.outcome as O;
        let r = await write(item, index, { key: ledger?.key(index), resumed: before?.state === 'started' });
        while (r._tag === 'Left' && ledger && !ledger.stopped() && (await ledger.pace(r.left)))
          r = await write(item, index, { key: ledger.key(index), resumed: false });
        return r._tag === 'Right' ? r.right : failed(index, r.left);
      }),
    );
    // A chunk's outcomes are recorded together (one commit): an instance that dies before leaves its items
    // started, and the job that resumes looks each up by its mark.
    await ledger?.settle(written.filter((_, i) => previous[i]?.state !== 'settled'));
    out.push(...written);
  }
  return out;
};
