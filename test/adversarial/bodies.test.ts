import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';
import { startServerProcess } from '../support/server-process.js';

// Attacks: an anonymous 300 MB multipart upload to a Request share raised the RSS from 123 MB to
// 1.67 GB before its 413 (the form was parsed whole), and any token could do the same with a large MCP
// body. Bodies are now read through one capped reader, multipart is parsed as it streams, and an upload
// past a few MiB goes to a temporary file until it is complete, so a refused body costs little memory
// even under the default 100 MiB upload limit (used here). The gateway runs as its own process so that
// its peak RSS (VmHWM) can be measured; GATEWAY_ENTRY=dist/composition/main.js runs the build.

const token = 'bodies-test-token-0123456789';
const MB = 1024 * 1024;
const ATTACK_BYTES = 200 * MB;

/** The peak resident set of a process, in bytes (Linux). */
const peakRss = (pid: number): number => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
};

/** The resident set now, in bytes (Linux). */
const rss = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
};

/**
 * Waits until the process's resident set stops growing (less than 2 MB over half a second, at most 20 s):
 * the server starts a document reader thread after it listens, and its start must not count as a body's.
 */
const settled = async (pid: number): Promise<void> => {
  let last = rss(pid);
  for (let waited = 0; waited < 20_000; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    const now = rss(pid);
    if (now - last < 2 * MB) return;
    last = now;
  }
};

/** A body of `total` bytes made as it is read (never held by the test), framed by `head` and `tail`. */
function* generated(total: number, head = '', tail = ''): Generator<Uint8Array> {
  const block = new Uint8Array(64 * 1024).fill(0x61);
  yield new TextEncoder().encode(head);
  for (let sent = 0; sent < total; sent += block.length)
    yield total - sent >= block.length ? block : block.subarray(0, total - sent);
  yield new TextEncoder().encode(tail);
}

/**
 * Streams a body (chunked, no Content-Length) and resolves with the answer's status as soon as it comes,
 * even when the server answers before the body is sent and then closes the connection; `closed` when the
 * connection was cut without any answer.
 */
const send = (url: string, body: Iterable<Uint8Array>, headers: Record<string, string>): Promise<number | 'closed'> =>
  new Promise((resolve) => {
    const u = new URL(url);
    const req = httpRequest({
      host: u.hostname,
      port: u.port,
      path: `${u.pathname}${u.search}`,
      method: 'POST',
      headers,
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => {
      if (!answered) resolve('closed');
    });
    const chunks = body[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (answered || req.destroyed) return;
        const next = chunks.next();
        if (next.done) return void req.end();
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });

const boundary = '----gateway-test-boundary';
const multipartUpload = (url: string) =>
  send(
    url,
    generated(
      ATTACK_BYTES,
      `--${boundary}\r\nContent-Disposition: form-data; name="Filedata"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      `\r\n--${boundary}--\r\n`,
    ),
    {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  );

describe('oversized bodies against the running server', () => {
  let child: ChildProcess;
  let base = '';

  beforeAll(async () => {
    const server = await startServerProcess({ GATEWAY_DEMO_TOKEN: token, RATE_LIMIT_PER_MINUTE: '100000' });
    child = server.child;
    base = server.base;
    // Warm up the paths under test, so that the first measurement already includes their code.
    for (let i = 0; i < 3; i++) {
      await fetch(`${base}/v1/tools/crm/getContact`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: '{"contact_id":"101"}',
      }).then((r) => r.text());
    }
    await settled(child.pid!);
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGKILL');
  });

  const tool = async (name: string, args: unknown) => {
    const r = await fetch(`${base}/v1/tools/files/${name}?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(args),
    });
    return (await r.json()) as { data: Record<string, string> };
  };
  const requestShare = async () => {
    const folder = (
      await tool('createFolder', { parent_id: 'home', name: `Inbox ${Math.random().toString(36).slice(2)}` })
    ).data.Id;
    return (await tool('createShare', { share_type: 'Request', parent_id: folder })).data.Uri!;
  };
  // Links name PUBLIC_BASE_URL, which is port 0 here: send them to the port the server really has.
  const here = (link: string) => {
    const u = new URL(link);
    return `${base}${u.pathname}${u.search}`;
  };
  const alive = async () => (await fetch(`${base}/healthz`)).status;
  const refused = (outcome: number | string) => outcome === 413;

  it('refuses an anonymous 200 MB multipart upload to a Request share without holding it', async () => {
    const share = await requestShare();
    const before = peakRss(child.pid!);
    const outcome = await multipartUpload(here(`${share}/upload?name=huge.bin`));
    expect(refused(outcome), String(outcome)).toBe(true);
    expect(peakRss(child.pid!) - before).toBeLessThan(100 * MB);
    expect(await alive()).toBe(200);
  }, 60_000);

  it('refuses three such uploads at once without holding them', async () => {
    const shares = await Promise.all([requestShare(), requestShare(), requestShare()]);
    const before = peakRss(child.pid!);
    const outcomes = await Promise.all(shares.map((s) => multipartUpload(here(`${s}/upload?name=huge.bin`))));
    expect(outcomes.every(refused), outcomes.join(', ')).toBe(true);
    expect(peakRss(child.pid!) - before).toBeLessThan(100 * MB);
    expect(await alive()).toBe(200);
  }, 90_000);

  it('refuses a 200 MB raw body to a signed upload address without holding it', async () => {
    const spec = (await tool('getUploadUrl', { folder_id: 'home', file_name: 'raw.bin' })).data;
    const before = peakRss(child.pid!);
    const outcome = await send(here(spec.ChunkUri!), generated(ATTACK_BYTES), {
      'content-type': 'application/octet-stream',
    });
    expect(refused(outcome), String(outcome)).toBe(true);
    expect(peakRss(child.pid!) - before).toBeLessThan(100 * MB);
  }, 60_000);

  it('refuses a 200 MB MCP body and a 200 MB tool call body without holding them', async () => {
    const before = peakRss(child.pid!);
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const rpc =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_getContact","arguments":{"contact_id":"';
    const outcomes = await Promise.all([
      send(`${base}/mcp`, generated(ATTACK_BYTES, rpc, '"}}}'), headers),
      send(`${base}/mcp`, generated(ATTACK_BYTES, rpc, '"}}}'), headers),
      send(`${base}/v1/tools/crm/getContact`, generated(ATTACK_BYTES, '{"contact_id":"', '"}'), headers),
    ]);
    expect(outcomes.every(refused), outcomes.join(', ')).toBe(true);
    expect(peakRss(child.pid!) - before).toBeLessThan(100 * MB);
    expect(await alive()).toBe(200);
  }, 90_000);
});

describe('bytes held per upload session', () => {
  it('keeps no more than the declared size when 300 overlapping chunks arrive', async () => {
    const gateway = testGateway({}, { FILES_MAX_UPLOAD_BYTES: String(16 * MB) });
    const spec = (
      await post(gateway, '/v1/tools/files/getUploadUrl?format=json', {
        folder_id: 'home',
        file_name: 'overlap.bin',
        file_size: MB,
      })
    ).body.data;
    const u = new URL(spec.ChunkUri);
    const chunk = new Uint8Array(MB - 300);
    let accepted = 0;
    let refusedAt = -1;
    for (let offset = 0; offset < 300; offset++) {
      const res = await gateway.http.request(`${u.pathname}${u.search}&index=${offset}&byteOffset=${offset}`, {
        method: 'POST',
        body: chunk,
      });
      const body = (await res.json()) as { data?: { received_bytes: number }; error?: { code: string } };
      if (res.status !== 200) {
        expect(res.status).toBe(413);
        refusedAt = offset;
        break;
      }
      accepted++;
      expect(body.data!.received_bytes).toBeLessThanOrEqual(MB);
    }
    expect(accepted).toBe(1);
    expect(refusedAt).toBe(1);
  });

  it('still accepts a retried chunk (same offset) and a normal threaded upload', async () => {
    const gateway = testGateway();
    const size = 9 * MB;
    const spec = (
      await post(gateway, '/v1/tools/files/getUploadUrl?format=json', {
        folder_id: 'home',
        file_name: 'retry.bin',
        file_size: size,
      })
    ).body.data;
    const u = new URL(spec.ChunkUri);
    const piece = 3 * MB;
    const at = (i: number) =>
      gateway.http.request(`${u.pathname}${u.search}&index=${i}&byteOffset=${i * piece}`, {
        method: 'POST',
        body: new Uint8Array(piece).fill(i),
      });
    for (const i of [0, 1, 1, 1, 2, 2]) expect((await at(i)).status).toBe(200);
    const f = new URL(spec.FinishUri);
    const done = await gateway.http.request(`${f.pathname}${f.search}`, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { data: { FileSizeBytes: number } }).data.FileSizeBytes).toBe(size);
  });
});
