import { afterAll, describe, expect, it } from 'vitest';
import { request, testGateway, type Answer } from '../../../support/gateway.js';

// Long jobs over REST (issue 40), in the embedded default: memory-mode tools, the job rows in the embedded
// SQLite file of the data dir. `Prefer: respond-async` answers 202 with the job's Location; the job's page
// shows progress "n of N", its failures, and its results a page at a time; only its caller sees it.

const OTHER = 'test-other-jobs-token-0123456789';
const READER = 'test-reader-jobs-token-0123456789';
const g = testGateway(
  {},
  {
    RATE_LIMIT_PER_MINUTE: '1000000',
    GATEWAY_API_KEYS: JSON.stringify([
      { name: 'other', token: OTHER, permissions: ['records:*'] },
      { name: 'reader', token: READER, permissions: ['records:read'] },
    ]),
  },
);
afterAll(() => g.close());

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `Job lead ${i}` } }));

const startJob = (body: unknown, token?: string) =>
  request(g, 'POST', '/v1/tools/records/batchCreateRecords', {
    body,
    headers: { prefer: 'respond-async' },
    ...(token ? { token } : {}),
  });

/** Polls the job until it ends (bounded: a job that never ends fails the test, it does not hang it). */
const settled = async (location: string, token?: string): Promise<Answer> => {
  for (let i = 0; i < 400; i++) {
    const r = await request(g, 'GET', location, token ? { token } : {});
    if (['completed', 'failed', 'cancelled'].includes(r.body?.data?.status)) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${location} did not end`);
};

describe('REST jobs', () => {
  it('a batch with Prefer: respond-async is answered 202 and runs to the end, its results paged', async () => {
    const started = await startJob({ app_id: 3001, inputs: inputs(120) });
    expect(started.status, started.raw).toBe(202);
    expect(started.headers.get('preference-applied')).toBe('respond-async');
    const location = started.headers.get('location')!;
    expect(location).toMatch(/^\/v1\/jobs\/j[0-9a-f]{32}$/);
    expect(started.body.data.job_id).toBe(location.split('/').pop());
    const done = await settled(location);
    const job = done.body.data;
    expect(job.status).toBe('completed');
    expect(job.progress).toMatchObject({ done: 120, total: 120, failed: 0, text: '120 of 120' });
    expect(job.result).toMatchObject({ total: 120, successful: 120, failed: 0 });
    // the first page, and its continuation: every index exactly once
    const seen: number[] = [];
    let next: string | undefined = `${location}?limit=50`;
    while (next) {
      const page: Answer = await request(g, 'GET', next);
      expect(page.status, page.raw).toBe(200);
      seen.push(...(page.body.data.items as { index: number }[]).map((i) => i.index));
      next = page.body.data.next;
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // each record exists once
    const records = (await request(g, 'GET', `${location}?limit=500`)).body.data.items as { record_id: number }[];
    expect(new Set(records.map((r) => r.record_id)).size).toBe(120);
  });

  it("lists only the caller's own jobs, and another caller's job id is not found", async () => {
    const mine = (await startJob({ app_id: 3001, inputs: inputs(3) })).headers.get('location')!;
    await settled(mine);
    const theirs = await startJob({ app_id: 3001, inputs: inputs(2) }, OTHER);
    expect(theirs.status, theirs.raw).toBe(202);
    const theirLocation = theirs.headers.get('location')!;
    const listed = await request(g, 'GET', '/v1/jobs');
    const ids = (listed.body.data.jobs as { job_id: string }[]).map((j) => j.job_id);
    expect(ids).toContain(mine.split('/').pop());
    expect(ids).not.toContain(theirLocation.split('/').pop());
    expect((await request(g, 'GET', theirLocation)).status).toBe(404);
    expect((await request(g, 'DELETE', theirLocation)).status).toBe(404);
    expect((await settled(theirLocation, OTHER)).body.data.status).toBe('completed');
  });

  it('a batch above the inline bound without Prefer is refused before anything is written, saying how to run it', async () => {
    const r = await request(g, 'POST', '/v1/tools/records/batchCreateRecords?format=json', {
      body: { app_id: 3001, inputs: inputs(501) },
    });
    expect(r.status, r.raw).toBe(400);
    expect(r.body.error.message).toMatch(/Prefer: respond-async/);
    expect(r.body.error.message).toMatch(/task/);
  });

  it('a tool that cannot run as a job ignores the preference and answers at once', async () => {
    const r = await request(g, 'POST', '/v1/tools/records/createRecord', {
      body: { app_id: 3001, fields: { name: 'Inline' } },
      headers: { prefer: 'respond-async' },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.headers.get('location')).toBeNull();
  });

  it('the gates apply before the job: a token without the permission gets 403 and no job', async () => {
    const r = await request(g, 'POST', '/v1/tools/records/batchCreateRecords', {
      body: { app_id: 3001, inputs: inputs(2) },
      headers: { prefer: 'respond-async' },
      token: READER,
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('location')).toBeNull();
  });

  it('bad paging parameters are a 400', async () => {
    const location = (await startJob({ app_id: 3001, inputs: inputs(1) })).headers.get('location')!;
    await settled(location);
    expect((await request(g, 'GET', `${location}?limit=0`)).status).toBe(400);
    expect((await request(g, 'GET', `${location}?limit=501`)).status).toBe(400);
    expect((await request(g, 'GET', `${location}?offset=-1`)).status).toBe(400);
  });
});

describe('a job without items (files_readFile)', () => {
  it('runs the call whole: the job ends with the result the call would have given', async () => {
    const written = await request(g, 'POST', '/v1/tools/files/writeFile?format=json', {
      body: { folder_id: 'home', file_name: 'job-read.txt', content: 'read me as a job\n' },
    });
    expect(written.status, written.raw).toBe(200);
    const started = await request(g, 'POST', '/v1/tools/files/readFile', {
      body: { item_id: written.body.data.Id },
      headers: { prefer: 'respond-async' },
    });
    expect(started.status, started.raw).toBe(202);
    const done = (await settled(started.headers.get('location')!)).body.data;
    expect(done.status).toBe('completed');
    expect(JSON.stringify(done.result)).toContain('read me as a job');
  });
});

describe('the jobs in OpenAPI', () => {
  it('documents /v1/jobs, /v1/jobs/{id} (get, delete) and the Prefer header of the job tools', async () => {
    const doc = (await request(g, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/jobs'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/jobs/{id}']).sort()).toEqual(['delete', 'get']);
    const batch = doc.paths['/v1/tools/records/batchCreateRecords'].post;
    expect(batch.responses['202'].headers.Location).toBeDefined();
    expect(batch.parameters.some((p: { name?: string }) => p.name === 'Prefer')).toBe(true);
  });
});
