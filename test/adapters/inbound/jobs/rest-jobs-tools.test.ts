import { afterAll, describe, expect, it } from 'vitest';
import { RecordApps } from '../../../../ports/record-apps.js';
import { RecordComments } from '../../../../ports/record-comments.js';
import { RecordStore } from '../../../../ports/record-store.js';
import { SystemClock } from '../../../../adapters/outbound/system-clock.js';
import { InMemoryPodioAccount } from '../../../../adapters/outbound/memory/in-memory-podio-account.js';
import { seedDemoRecords } from '../../../../adapters/outbound/memory/demo/records.js';
import { request, testGateway, type Answer } from '../../../support/gateway.js';
import { WatchedRecords } from '../../../application/jobs/job-world.js';

// Long jobs over REST in memory mode (issue 40), for the tools that run whole as a job: records_uploadFiles,
// files_copyItem and files_moveItem of a folder end with the result the call would have given, and what it
// did is there afterwards. And `DELETE /v1/jobs/{id}` of a batch while it runs: the chunk in flight ends,
// no chunk starts after it, and the job reports exactly the records that exist.

const records = new WatchedRecords({ clock: new SystemClock(), account: InMemoryPodioAccount.withDemoData() });
seedDemoRecords(records);
const g = testGateway(
  {
    ports: [
      [RecordStore, records],
      [RecordApps, records],
      [RecordComments, records.commentsPort()],
    ],
  },
  { RATE_LIMIT_PER_MINUTE: '1000000' },
);
afterAll(() => g.close());

const json = (path: string, body: unknown) => request(g, 'POST', `/v1/tools/${path}?format=json`, { body });
const asJob = (path: string, body: unknown) =>
  request(g, 'POST', `/v1/tools/${path}`, { body, headers: { prefer: 'respond-async' } });

/** Polls the job until it ends (bounded: a job that never ends fails the test, it does not hang it). */
const settled = async (location: string): Promise<Answer> => {
  for (let i = 0; i < 400; i++) {
    const r = await request(g, 'GET', location);
    if (['completed', 'failed', 'cancelled'].includes(r.body?.data?.status)) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${location} did not end`);
};

const runAsJob = async (path: string, body: unknown) => {
  const started = await asJob(path, body);
  expect(started.status, started.raw).toBe(202);
  const done = (await settled(started.headers.get('location')!)).body.data;
  expect(done.status, JSON.stringify(done)).toBe('completed');
  return done;
};

const folder = async (parent: string, name: string): Promise<string> => {
  const r = await json('files/createFolder', { parent_id: parent, name });
  expect(r.status, r.raw).toBe(200);
  return String(r.body.data.Id);
};

const write = async (folderId: string, name: string, content: string) => {
  const r = await json('files/writeFile', { folder_id: folderId, file_name: name, content });
  expect(r.status, r.raw).toBe(200);
};

const children = async (folderId: string): Promise<{ Id: string; Name: string; FileSizeBytes?: number }[]> => {
  const r = await json('files/listChildren', { folder_id: folderId });
  expect(r.status, r.raw).toBe(200);
  return r.body.data.items;
};

describe('the tools that run whole as a job', () => {
  it('records_uploadFiles: the job ends with the stored files, each of the size sent', async () => {
    const files = [
      { content_base64: Buffer.from('first file of the job\n').toString('base64'), name: 'job-a.txt' },
      { content_base64: Buffer.from('second\n').toString('base64'), name: 'job-b.txt', mimetype: 'text/plain' },
    ];
    const done = await runAsJob('records/uploadFiles', { files });
    const stored = done.result as { file_id: number; name: string; size: number; mimetype: string }[];
    expect(stored.map((f) => [f.name, f.size])).toEqual([
      ['job-a.txt', 22],
      ['job-b.txt', 7],
    ]);
    expect(stored[1]!.mimetype).toBe('text/plain');
    expect(new Set(stored.map((f) => f.file_id)).size).toBe(2);
    // A file id the job gave is one a record can be given: attach it to a comment.
    const comment = await json('records/createRecordComment', {
      record_id: Number((await json('records/listRecords', { app_id: 3001, limit: 1 })).body.data.records[0].record_id),
      value: 'uploaded by a job',
      file_ids: [stored[0]!.file_id],
    });
    expect(comment.status, comment.raw).toBe(200);
  });

  it('files_copyItem of a folder: the copy, with its files, is in the destination; the original stays', async () => {
    const source = await folder('home', 'Job copy source');
    await write(source, 'one.txt', 'one\n');
    await write(source, 'two.txt', 'two two\n');
    const target = await folder('home', 'Job copy target');
    const done = await runAsJob('files/copyItem', { item_id: source, target_folder_id: target });
    const copied = (await children(target)).find((i) => i.Name === 'Job copy source');
    expect(copied, JSON.stringify(done.result)).toBeDefined();
    expect(copied!.Id).not.toBe(source);
    expect(JSON.stringify(done.result)).toContain(copied!.Id);
    expect((await children(copied!.Id)).map((i) => [i.Name, i.FileSizeBytes]).sort()).toEqual([
      ['one.txt', 4],
      ['two.txt', 8],
    ]);
    expect((await children(source)).map((i) => i.Name).sort()).toEqual(['one.txt', 'two.txt']);
  });

  it('files_moveItem of a folder: the folder, with its files, is in the destination and no longer where it was', async () => {
    const parent = await folder('home', 'Job move parent');
    const moving = await folder(parent, 'Job moving');
    await write(moving, 'carried.txt', 'carried along\n');
    const target = await folder('home', 'Job move target');
    const done = await runAsJob('files/moveItem', { item_id: moving, target_folder_id: target });
    expect(JSON.stringify(done.result)).toContain(moving);
    expect((await children(target)).map((i) => i.Id)).toEqual([moving]);
    expect(await children(parent)).toEqual([]);
    expect((await children(moving)).map((i) => i.Name)).toEqual(['carried.txt']);
  });
});

describe('DELETE /v1/jobs/{id} of a running batch', () => {
  it('stops after the chunk in flight, and the job counts exactly the records that exist', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    let reached: () => void = () => undefined;
    const inSecondChunk = new Promise<void>((resolve) => (reached = resolve));
    records.before = async () => {
      writes += 1;
      if (writes === 51) reached();
      if (writes > 50 && writes <= 100) await held; // the second chunk is in flight until the test lets it go
      return undefined;
    };
    const inputs = Array.from({ length: 400 }, (_, i) => ({ fields: { name: `Cancelled lead ${i}` } }));
    const started = await asJob('records/batchCreateRecords', { app_id: 3001, inputs });
    expect(started.status, started.raw).toBe(202);
    const location = started.headers.get('location')!;
    await inSecondChunk;
    const running = await request(g, 'GET', location);
    expect(running.body.data).toMatchObject({ status: 'running', progress: { done: 50, total: 400 } });
    const cancel = await request(g, 'DELETE', location);
    expect(cancel.status, cancel.raw).toBe(200);
    expect(cancel.body.data.status).toBe('cancelling');
    release();
    const ended = (await settled(location)).body.data;
    records.before = () => Promise.resolve(undefined);
    expect(ended).toMatchObject({ status: 'cancelled', progress: { done: 100, total: 400, failed: 0 } });
    expect(ended.result).toMatchObject({ total: 100, successful: 100 });
    // The records that exist: one per mark of this job, each written once, and each listed in the job.
    const marks = [...records.created.entries()].filter(([key]) => key.startsWith(`${ended.job_id}.`));
    expect(marks).toHaveLength(100);
    expect(marks.every(([, n]) => n === 1)).toBe(true);
    const items = (await request(g, 'GET', `${location}?limit=500`)).body.data.items as { record_id: number }[];
    expect(items).toHaveLength(100);
    expect(writes).toBe(100);
    const found = await json('records/getRecord', { record_id: items[99]!.record_id });
    expect(found.status, found.raw).toBe(200);
    expect(JSON.stringify(found.body.data)).toContain('Cancelled lead 99');
  });
});
