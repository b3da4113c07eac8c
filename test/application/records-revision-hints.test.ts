import { afterAll, describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { lastChangeRange } from '../../domain/records/revision.js';
import { podioSetup } from './records-podio-gateway.js';
import { setup } from './records-gateway.js';

// Issue 30, a smaller finding: a revision hint named a range whose delta was empty (the last two revisions,
// when the last was a delete or a restore, which change no field). The hint now names the last update and
// the revision before it, or nothing when there is no update; the named call answers at least one change.

type Call = ReturnType<typeof setup>['call'];

/** The getRecordRevisionDelta call a revisions answer names, if any. */
const hinted = (text: string): Record<string, number> | undefined => {
  const m = /records_getRecordRevisionDelta (\{[^\n]*\})/.exec(text);
  return m ? JSON.parse(m[1]!) : undefined;
};

const revisionsText = async (call: Call, id: number) =>
  (await call('getRecordRevisions', { record_id: id }, 'text')).data as string;

const followHint = async (call: Call, id: number) => {
  const args = hinted(await revisionsText(call, id));
  if (!args) return undefined;
  const delta = await call('getRecordRevisionDelta', args);
  expect(delta.status).toBe(200);
  return { args, changes: delta.data.changes as { external_id: string }[] };
};

describe('revision hints', () => {
  it('picks the last update, never a creation, delete or restore', () => {
    const r = (revision: number, type: 'creation' | 'update' | 'delete' | 'restore') => ({ revision, type });
    expect(lastChangeRange([r(0, 'creation')])).toBeUndefined();
    expect(lastChangeRange([r(0, 'creation'), r(1, 'delete'), r(2, 'restore')])).toBeUndefined();
    expect(lastChangeRange([r(0, 'creation'), r(1, 'update'), r(2, 'delete'), r(3, 'restore')])).toEqual({
      revision_from: 0,
      revision_to: 1,
    });
    // a page that starts past the first revision
    expect(lastChangeRange([r(4, 'update'), r(5, 'delete')])).toEqual({ revision_from: 3, revision_to: 4 });
  });

  it('in memory: after a delete and a restore the hint still names the update, whose delta is not empty', async () => {
    const { call } = setup();
    const made = await call('createRecord', { app_id: LEADS_APP, fields: { name: 'Hint Person' } });
    const id = made.data.record_id as number;
    expect(hinted(await revisionsText(call, id))).toBeUndefined();

    await call('updateRecord', { record_id: id, fields: { score: 7 } });
    await call('deleteRecord', { record_id: id });
    await call('restoreRecord', { record_id: id });
    const text = await revisionsText(call, id);
    expect(text).toMatch(/\| 3 \| restore \|/);
    const followed = await followHint(call, id);
    expect(followed!.args).toEqual({ record_id: id, revision_from: 0, revision_to: 1 });
    expect(followed!.changes.map((c) => c.external_id)).toEqual(['score']);

    // the range the old hint named (the last two revisions) has no change: what the finding was about
    const old = await call('getRecordRevisionDelta', { record_id: id, revision_from: 2, revision_to: 3 });
    expect(old.data.changes).toEqual([]);
  });

  it("an update's answer carries its new revision and names the delta of this update (issue 41)", async () => {
    const { call } = setup();
    const id = (await call('createRecord', { app_id: LEADS_APP, fields: { name: 'Delta Person' } })).data
      .record_id as number;
    await call('updateRecord', { record_id: id, fields: { score: 3 } });
    const json = await call('updateRecord', { record_id: id, fields: { score: 9 } });
    expect(json.data).toEqual({ record_id: id, revision: 2 });
    const text = (await call('updateRecord', { record_id: id, fields: { score: 12 } }, 'text')).data as string;
    const args = hinted(text);
    expect(args).toEqual({ record_id: id, revision_from: 2, revision_to: 3 });
    const delta = await call('getRecordRevisionDelta', args);
    expect(delta.data.changes.map((c: { external_id: string; to: unknown }) => [c.external_id, c.to])).toEqual([
      ['score', 12],
    ]);
    const full = await call('updateRecord', { record_id: id, fields: { score: 13 }, id_only: false });
    expect(full.data).toMatchObject({ record_id: id, revision: 4, fields: expect.any(Array) });
  });

  it('in memory: a record only deleted and restored gets no hint', async () => {
    const { call } = setup();
    const id = (await call('createRecord', { app_id: LEADS_APP, fields: { name: 'No Change' } })).data
      .record_id as number;
    await call('deleteRecord', { record_id: id });
    await call('restoreRecord', { record_id: id });
    expect(await revisionsText(call, id)).not.toContain('records_getRecordRevisionDelta');
  });

  describe('over the Podio stand-in', () => {
    let podio: Awaited<ReturnType<typeof podioSetup>>;
    afterAll(() => podio?.close());

    it('the hint names the last update, and its delta holds the change', async () => {
      podio = await podioSetup();
      const { call, server } = podio;
      const id = (await call('createRecord', { app_id: LEADS_APP, fields: { name: 'Podio Hint' } })).data
        .record_id as number;
      expect(hinted(await revisionsText(call, id))).toBeUndefined();
      await call('updateRecord', { record_id: id, fields: { score: 3 } });
      await call('updateRecord', { record_id: id, fields: { score: 4 } });
      const followed = await followHint(call, id);
      expect(followed!.args).toEqual({ record_id: id, revision_from: 1, revision_to: 2 });
      expect(followed!.changes.map((c) => c.external_id)).toEqual(['score']);
      expect(server.violations).toEqual([]);
    });
  });
});
