import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PendingAnswers } from '../../adapters/inbound/mcp/legacy-relay.js';
import { authInfoFor, createGatewayMcpHandler } from '../../adapters/inbound/mcp/mcp-server.js';
import { ERROR_META_KEY } from '../../adapters/inbound/mcp/mcp-tools.js';
import { testGateway } from '../support/gateway.js';

// The bounds of a 2025-era approval, which holds an exchange open while a person answers: the registry of
// awaited answers is bounded in count (overall and per caller) and in time, an answer is taken only from
// the caller it was asked of, and the exchange waits no longer than its limit.

describe('PendingAnswers', () => {
  const answer = (id: string) => ({ jsonrpc: '2.0' as const, id, result: { action: 'accept' } });

  it('refuses past its count, overall and per caller', () => {
    const pending = new PendingAnswers({ max: 3, perOwner: 2 });
    expect(pending.add('a', 60_000, () => undefined)).toBeDefined();
    expect(pending.add('a', 60_000, () => undefined)).toBeDefined();
    expect(pending.add('a', 60_000, () => undefined)).toBeUndefined(); // a's two are waiting
    expect(pending.add('b', 60_000, () => undefined)).toBeDefined();
    expect(pending.add('c', 60_000, () => undefined)).toBeUndefined(); // three in all
    expect(pending.size).toBe(3);
  });

  it('forgets an entry once its time is up, and takes no late answer', () => {
    let now = 1_000;
    const pending = new PendingAnswers({ max: 1, perOwner: 1 }, () => now);
    const delivered: unknown[] = [];
    const id = pending.add('a', 500, (m) => delivered.push(m))!;
    now += 501;
    expect(pending.answer(answer(id), 'a')).toBe(false);
    expect(delivered).toHaveLength(0);
    expect(pending.add('b', 500, () => undefined)).toBeDefined(); // the expired one no longer counts
    expect(pending.size).toBe(1);
  });

  it('takes an answer only from the caller it was asked of, once, and only for ids it gave', () => {
    const pending = new PendingAnswers({ max: 10, perOwner: 10 });
    const delivered: unknown[] = [];
    const id = pending.add('tenant-a:alice', 60_000, (m) => delivered.push(m))!;
    expect(id).toMatch(/^tg-[A-Za-z0-9_-]{24}$/);
    expect(pending.answer(answer(id), 'tenant-b:alice')).toBe(false);
    expect(pending.answer(answer('tg-guessed'), 'tenant-a:alice')).toBe(false);
    expect(pending.answer({ jsonrpc: '2.0', id: 0, result: {} } as any, 'tenant-a:alice')).toBe(false);
    expect(pending.answer(answer(id), 'tenant-a:alice')).toBe(true);
    expect(pending.answer(answer(id), 'tenant-a:alice')).toBe(false);
    expect(delivered).toHaveLength(1);
    expect(pending.size).toBe(0);
  });
});

describe('a 2025-era exchange waiting for a person', () => {
  const gateway = testGateway();
  const principal = { id: 'key:bounds', name: 'bounds', tenant: 'default', permissions: new Set(['*']) } as any;
  const handler = createGatewayMcpHandler({
    executor: gateway.executor,
    version: 'test',
    maxBodyBytes: 1 << 20,
    approvalWaitMs: 400,
    pendingLimits: { max: 1, perOwner: 1 },
  });
  let server: ServerType | undefined;
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve(
        {
          port: 0,
          hostname: '127.0.0.1',
          fetch: async (req) => {
            if (req.method !== 'POST') return new Response(null, { status: 405 });
            const parsedBody = await req.clone().json();
            return handler(req, { authInfo: authInfoFor('t', { principal, requestId: 'r' }), parsedBody });
          },
        },
        () => resolve(),
      );
    });
    base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gateway.close();
  });

  const connect = async (person: () => Promise<any>) => {
    const client = new Client({ name: 'bounds', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', person);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    await client.listTools();
    return client;
  };
  const exists = async (id: string) =>
    (await gateway.callTool('crm_getContact', { contact_id: id }, { principal })).status === 200;

  it('gives up after its wait, and nothing changes', async () => {
    const client = await connect(() => new Promise(() => undefined)); // a person who never answers
    const started = Date.now();
    const result: any = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: '109' } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result._meta[ERROR_META_KEY].code).toBe('TIMEOUT');
    expect(result.content[0].text).toContain('no person answered');
    expect(await exists('109')).toBe(true);
    await client.close();
  });

  it('refuses a second approval while the registry is full, and serves the first', async () => {
    let release!: (answer: unknown) => void;
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const client = await connect(
      () =>
        new Promise((resolve) => {
          release = resolve;
          asked();
        }),
    );
    const first = client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: '110' } });
    await askedOnce;
    const second: any = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: '111' } });
    expect(second._meta[ERROR_META_KEY].code).toBe('UNAVAILABLE');
    expect(second.content[0].text).toContain('too many approvals');
    release({ action: 'accept', content: { approve: true } });
    const done: any = await first;
    expect(done.isError).not.toBe(true);
    expect(await exists('110')).toBe(false);
    expect(await exists('111')).toBe(true);
    await client.close();
  });
});
