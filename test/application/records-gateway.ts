// The records tools over the in-memory store, behind a test gateway (shared by the records-tools tests).
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { everyone, NOW, testGateway } from '../support/gateway.js';

export const setup = (wrap?: (s: InMemoryRecords) => RecordStore) => {
  const clock = new FixedClock(NOW);
  const account = InMemoryPodioAccount.withDemoData();
  const store = new InMemoryRecords({ clock, account });
  seedDemoRecords(store);
  const fetched: string[] = [];
  const fetcher = {
    fetch: (url: string) => (
      fetched.push(url),
      TE.right({ name: 'doc.pdf', mimetype: 'application/pdf', content: new Uint8Array([1, 2, 3]) })
    ),
  };
  const g = testGateway(
    {
      clock,
      ports: [
        [RecordApps, store],
        [RecordStore, wrap ? wrap(store) : store],
        [RecordComments, store.commentsPort()],
        [RecordsSettings, { timeZone: 'UTC', activeProfileId: () => TE.right(9101) }],
        [UrlFetcher, fetcher],
      ],
    },
    // Whole pages in format=json: these tests are about the records tools, not output budgets.
    { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' },
  );
  const call = async (name: string, args: unknown, format: 'text' | 'json' = 'json') => {
    const r = await g.callTool(`records_${name}`, args, { principal: everyone, format });
    return {
      status: r.status,
      data: (r.body as any).success ? (r.body as any).data : undefined,
      error: (r.body as any).success ? undefined : (r.body as any).error,
    };
  };
  return { g, clock, store, call, fetched };
};

/** The store's RecordStore methods, to wrap one of them. */
export const bindAll = (s: InMemoryRecords): RecordStore => ({
  get: (id) => s.get(id),
  query: (a, q) => s.query(a, q),
  matchAll: (a, f) => s.matchAll(a, f),
  create: (a, f, fl) => s.create(a, f, fl),
  update: (a, id, f, fl) => s.update(a, id, f, fl),
  delete: (id, fl) => s.delete(id, fl),
  restore: (id) => s.restore(id),
  revisions: (id) => s.revisions(id),
  revisionDelta: (id, a, b) => s.revisionDelta(id, a, b),
  referencing: (id, app) => s.referencing(id, app),
  findRelatable: (f, t, l) => s.findRelatable(f, t, l),
  uploadFile: (f) => s.uploadFile(f),
  deleteFile: (id) => s.deleteFile(id),
});
