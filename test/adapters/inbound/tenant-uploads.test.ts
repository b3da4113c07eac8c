import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../../composition/gateway.js';
import { servedGateway } from '../../support/served-gateway.js';

// Issue 38: uploads of 16 KiB or more to a tenant other than the default one (`/t/{tenant}/files/...`)
// answered 408 after the body deadline although every byte had arrived. The tenant's routes were handed a
// request whose body was a second reader of Node's request: once its 16 KiB buffer was full it paused the
// socket, and the upload route, reading Node's request itself, never saw another byte. These uploads go
// over a real socket, as a client's do (app.request never had the fault).

const ACME = 'tenant-uploads-acme-0123456789';

const served = servedGateway(
  createGateway({
    env: {
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'acme-bot', token: ACME, permissions: ['*'], tenant: 'acme' }]),
      // A stalled body is answered in 2 s, so the fault shows without waiting the default 10 s.
      GATEWAY_BODY_TIMEOUT_MS: '2000',
    },
    logger: pino({ level: 'silent' }),
  }),
);

const tool = async (name: string, body: unknown): Promise<any> => {
  const [group, tool] = name.split('_') as [string, string];
  const res = await fetch(`${served.base()}/v1/tools/${group}/${tool}?format=json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ACME}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
};

/** The tenant's signed upload address for a new file, on the served socket. */
const uploadAddress = async (fileName: string, fileSize?: number) => {
  const spec = await tool('files_getUploadUrl', {
    folder_id: 'home',
    file_name: fileName,
    ...(fileSize !== undefined ? { file_size: fileSize } : {}),
  });
  const local = (address: string) => {
    const u = new URL(address);
    return `${served.base()}${u.pathname}${u.search}`;
  };
  const chunk = local(spec.ChunkUri as string);
  expect(new URL(chunk).pathname).toMatch(/^\/t\/acme\/files\/transfer\/upload\//);
  return { chunk, finish: spec.FinishUri ? local(spec.FinishUri as string) : undefined };
};

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** The stored file's bytes, read back through the tenant's download address. */
const stored = async (itemId: string): Promise<Buffer> => {
  const link = await tool('files_getDownloadUrl', { item_id: itemId });
  const u = new URL(link.DownloadUrl as string);
  const res = await fetch(`${served.base()}${u.pathname}${u.search}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

/**
 * POSTs `bytes` over its own connection, the headers first and then the body in pieces of `piece` bytes a
 * moment apart, so that the server reads it in several parts however the machine's socket buffers fall.
 * `chunked` sends no Content-Length (Node then sends the body with Transfer-Encoding: chunked).
 */
const send = (url: string, bytes: Buffer, piece: number, chunked = false): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/octet-stream',
        ...(chunked ? {} : { 'content-length': String(bytes.length) }),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.flushHeaders();
    void (async () => {
      await sleep(50);
      for (let at = 0; at < bytes.length; at += piece) {
        if (!req.write(bytes.subarray(at, at + piece))) await new Promise((r) => req.once('drain', r));
        await sleep(1);
      }
      req.end();
    })().catch(reject);
  });

interface Answer {
  readonly status: number;
  readonly text: string;
}

const answerOf = async (res: Response): Promise<Answer> => ({ status: res.status, text: await res.text() });

const completed = async (res: Answer, bytes: Buffer) => {
  const text = res.text;
  expect(res.status, text).toBe(200);
  const data = (JSON.parse(text) as { data: { completed: boolean; Id: string; FileSizeBytes: number } }).data;
  expect(data).toMatchObject({ completed: true, FileSizeBytes: bytes.length });
  expect(md5(await stored(data.Id))).toBe(md5(bytes));
};

describe("a non-default tenant's uploads over a real socket", () => {
  it('takes raw uploads of 16 KiB and more, sent in parts of 1 KiB', async () => {
    for (const size of [16_384, 24_576, 32_768]) {
      const bytes = randomBytes(size);
      const { chunk } = await uploadAddress(`small-${size}.bin`);
      await completed(await send(chunk, bytes, 1024), bytes);
    }
  });

  it('takes a raw upload of 1 MB', async () => {
    const bytes = randomBytes(1_000_000);
    const { chunk } = await uploadAddress('one-megabyte.bin');
    await completed(await send(chunk, bytes, 65_536), bytes);
  });

  it('takes a multipart upload of 1 MB', async () => {
    const bytes = randomBytes(1_000_000);
    const { chunk } = await uploadAddress('form.bin');
    const form = new FormData();
    form.append('Filedata', new Blob([bytes]), 'form.bin');
    await completed(await answerOf(await fetch(chunk, { method: 'POST', body: form })), bytes);
  });

  it('takes a body sent with Transfer-Encoding: chunked (no Content-Length)', async () => {
    const bytes = randomBytes(300_000);
    const { chunk } = await uploadAddress('streamed.bin');
    await completed(await send(chunk, bytes, 20_000, true), bytes);
  });

  it('takes a chunked upload session: indexed chunks of 256 KiB, then finish', async () => {
    const bytes = randomBytes(600_000);
    const { chunk, finish } = await uploadAddress('session.bin', bytes.length);
    expect(finish).toBeDefined();
    const size = 262_144;
    for (let index = 0, offset = 0; offset < bytes.length; index++, offset += size) {
      const res = await send(
        `${chunk}&index=${index}&byteOffset=${offset}`,
        bytes.subarray(offset, offset + size),
        65_536,
      );
      expect(res.status, res.text).toBe(200);
      expect((JSON.parse(res.text) as { data: { received: boolean } }).data.received).toBe(true);
    }
    await completed(await answerOf(await fetch(`${finish!}&filehash=${md5(bytes)}`, { method: 'POST' })), bytes);
  });
});
