import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { DEFAULT_FLAGS } from '../../domain/records/revision.js';
import { err, ok } from '../support/run.js';
import type { RecordsHarness } from './records-harness.js';

/** What every RecordComments does. */
export const recordCommentsContract = (name: string, start: () => Promise<RecordsHarness>) =>
  describe(`RecordComments contract: ${name}`, () => {
    let h: RecordsHarness;
    let recordId: number;
    beforeAll(async () => {
      h = await start();
      const app = await ok(h.apps.getApp(LEADS_APP));
      recordId = (await ok(h.store.query(app, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: false })))
        .records[0]!.record_id;
    });
    afterAll(async () => {
      await h?.close();
    });

    it("creates a comment by the acting user, reads it back and lists a record's comments oldest first", async () => {
      const file = await ok(
        h.store.uploadFile({ name: 'note.txt', mimetype: 'text/plain', content: new TextEncoder().encode('hello') }),
      );
      const first = await ok(h.comments.create(recordId, 'First comment', [file.file_id], DEFAULT_FLAGS));
      const second = await ok(h.comments.create(recordId, 'Second comment', [], { ...DEFAULT_FLAGS, silent: true }));
      expect(first).toMatchObject({
        value: 'First comment',
        ref: { type: 'record', id: recordId },
        created_by: { user_id: 5001, name: 'Maria Gonzalez', type: 'user' },
      });
      expect(first.files.map((f) => [f.file_id, f.name])).toEqual([[file.file_id, 'note.txt']]);
      expect(first.created_on).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(await ok(h.comments.get(second.comment_id))).toMatchObject({
        comment_id: second.comment_id,
        value: 'Second comment',
      });
      const page = await ok(h.comments.list(recordId, 0, 30));
      expect(page.total).toBe(2);
      expect(page.comments.map((c) => c.value)).toEqual(['First comment', 'Second comment']);
      expect((await ok(h.comments.list(recordId, 1, 1))).comments.map((c) => c.value)).toEqual(['Second comment']);
    });

    it('deletes a comment for good', async () => {
      const c = await ok(h.comments.create(recordId, 'To be removed', [], DEFAULT_FLAGS));
      await ok(h.comments.delete(c.comment_id, { silent: false, hook: true }));
      expect(await err(h.comments.get(c.comment_id))).toMatchObject({ _tag: 'NotFound' });
      expect((await ok(h.comments.list(recordId, 0, 30))).comments.map((x) => x.comment_id)).not.toContain(
        c.comment_id,
      );
    });

    it('answers NotFound for a comment or record that does not exist', async () => {
      expect(await err(h.comments.get(987654321))).toMatchObject({ _tag: 'NotFound' });
      expect(await err(h.comments.create(987654321, 'x', [], DEFAULT_FLAGS))).toMatchObject({ _tag: 'NotFound' });
    });
  });
