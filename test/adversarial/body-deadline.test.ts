import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_TIMEOUT_MS, setBodyTimeout } from '../../adapters/inbound/http/body-reader.js';
import { DEMO_TOKEN, testGateway } from '../support/gateway.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

// Issue 26: a request body that never ended was held open 75 s and more (until the client gave up), one
// connection and one pending call each. A body now has a deadline (GATEWAY_BODY_TIMEOUT_MS): a tool call's
// whole body must arrive within it, an upload may not pause longer than it. Past it the answer is 408
// REQUEST_TIMEOUT in the error envelope and the connection is closed. Request headers have the same limit.

const DEADLINE_MS = 400;

/** A body that sends `head` and then nothing, never ending. */
const stalled = (head: string): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
    },
  });

/** A body sent in `parts`, `pauseMs` apart. */
const paced = (parts: readonly string[], pauseMs: number): ReadableStream<Uint8Array> => {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (i > 0) await new Promise((r) => setTimeout(r, pauseMs));
      if (i === parts.length) return controller.close();
      controller.enqueue(new TextEncoder().encode(parts[i++]));
    },
  });
};

describe('in process (app.request)', () => {
  const g = testGateway({}, { GATEWAY_BODY_TIMEOUT_MS: String(DEADLINE_MS) });
  afterAll(() => setBodyTimeout(DEFAULT_BODY_TIMEOUT_MS));

  it('answers a tool call whose body stalls with 408 REQUEST_TIMEOUT, within the deadline', async () => {
    const started = performance.now();
    const res = await g.http.request('/v1/tools/crm/getContact', {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: stalled('{"contact_id":'),
      duplex: 'half',
    } as RequestInit);
    const ms = performance.now() - started;
    expect(res.status).toBe(408);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toMatchObject({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', details: { parameter: 'body', timeout_ms: DEADLINE_MS } },
    });
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 20);
    expect(ms).toBeLessThan(DEADLINE_MS + 1500);
  });

  it('counts a tool call body as a whole: arriving in pieces past the deadline is too late', async () => {
    const res = await g.http.request('/v1/tools/crm/getContact', {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      body: paced(['{"contact_id"', ':', '"101"', '}'], DEADLINE_MS / 2),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(408);
  });

  it('lets an upload pause for less than the deadline, as often as it needs, but not longer', async () => {
    const uploadPath = async (name: string) => {
      const spec = await g.http.request('/v1/tools/files/getUploadUrl?format=json', {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
        body: JSON.stringify({ folder_id: 'home', file_name: name }),
      });
      const chunk = new URL(((await spec.json()) as { data: { ChunkUri: string } }).data.ChunkUri);
      return `${chunk.pathname}${chunk.search}`;
    };
    const slow = await g.http.request(await uploadPath('slow.txt'), {
      method: 'POST',
      body: paced(['one ', 'two ', 'three ', 'four'], DEADLINE_MS / 2),
      duplex: 'half',
    } as RequestInit);
    expect(slow.status).toBe(200);
    const stall = await g.http.request(await uploadPath('stalled.txt'), {
      method: 'POST',
      body: stalled('five'),
      duplex: 'half',
    } as RequestInit);
    expect(stall.status).toBe(408);
    expect(await stall.json()).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
    const form = await g.http.request(await uploadPath('form.txt'), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: stalled('--b\r\nContent-Disposition: form-data; name="Filedata"; filename="form.txt"\r\n\r\nsix'),
      duplex: 'half',
    } as RequestInit);
    expect(form.status).toBe(408);
  });
});

describe('the server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ GATEWAY_DEMO_TOKEN: DEMO_TOKEN, GATEWAY_BODY_TIMEOUT_MS: String(DEADLINE_MS) });
  }, 60_000);
  afterAll(() => server?.child.kill('SIGKILL'));

  /** Writes `text` on a new connection; resolves with what came back once the server closed it, and when. */
  const exchange = (text: string): Promise<{ answer: string; ms: number }> =>
    new Promise((resolve, reject) => {
      const u = new URL(server.base);
      const started = performance.now();
      const socket: Socket = connect(Number(u.port), u.hostname, () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (answer += d));
      socket.on('close', () => resolve({ answer, ms: performance.now() - started }));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`no close within 20 s; got ${answer}`));
      }, 20_000);
    });

  it('answers a stalled tool-call body with 408 in the envelope and closes the connection', async () => {
    const { answer, ms } = await exchange(
      'POST /v1/tools/crm/getContact HTTP/1.1\r\nHost: gateway\r\n' +
        `Authorization: Bearer ${DEMO_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"contact_id":`,
    );
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(head.toLowerCase()).toMatch(/x-request-id: \S+/);
    expect(JSON.parse(body)).toMatchObject({ success: false, error: { code: 'REQUEST_TIMEOUT' } });
    expect(ms).toBeLessThan(DEADLINE_MS + 2000);
  });

  it('answers headers that stall with 408 in the envelope too', async () => {
    const { answer, ms } = await exchange('POST /v1/tools/crm/getContact HTTP/1.1\r\nHost: gateway\r\nAuthor');
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toMatch(/x-request-id: \S+/);
    expect(JSON.parse(body)).toMatchObject({ success: false, error: { code: 'REQUEST_TIMEOUT' } });
    // Node checks the headers' deadline once a second.
    expect(ms).toBeLessThan(DEADLINE_MS + 3000);
  });

  it('still answers a body sent whole', async () => {
    const r = await fetch(`${server.base}/v1/tools/crm/getContact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      body: '{"contact_id":"101"}',
    });
    expect(r.status).toBe(200);
  });
});
