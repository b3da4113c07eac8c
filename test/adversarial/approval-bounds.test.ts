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
    const pending = new PendingAnswers({ max: 3, perOwner: 2, perTenant: 3 });
    expect(pending.add('a', 60_000, () => undefined)).toMatch(/^tg-/);
    expect(pending.add('a', 60_000, () => undefined)).toMatch(/^tg-/);
    expect(pending.add('a', 60_000, () => undefined)).toEqual({ scope: 'caller', limit: 2, retryAfterSeconds: 30 });
    expect(pending.add('b', 60_000, () => undefined)).toMatch(/^tg-/);
    expect(pending.add('c', 60_000, () => undefined)).toMatchObject({ scope: 'gateway', limit: 3 }); // three in all
    expect(pending.size).toBe(3);
  });

  // Issue 38: one tenant with 63 callers filled the gateway's 1,000 waiting approvals in 4 s, and every
  // other tenant's approval was refused for two minutes at a time.
  it("keeps one tenant's callers together within the tenant's share, so another tenant's approval still waits", () => {
    let now = 0;
    const pending = new PendingAnswers({ max: 10, perOwner: 2, perTenant: 4 }, () => now);
    const refusals = [];
    for (let caller = 0; caller < 6; caller++) {
      for (let i = 0; i < 2; i++) {
        const r = pending.add(`acme:key-${caller}`, 20_000, () => undefined);
        if (typeof r !== 'string') refusals.push(r);
      }
      now += 1000;
    }
    expect(pending.waitingFor('acme')).toBe(4);
    expect(refusals).toHaveLength(8);
    // When to try again: when acme's first waiting approval runs out (at 20 s; it was 5 s then).
    expect(refusals.at(-1)).toEqual({ scope: 'tenant', limit: 4, retryAfterSeconds: 15 });
    expect(pending.add('globex:key-0', 20_000, () => undefined)).toMatch(/^tg-/);
    expect(pending.add('globex:key-1', 20_000, () => undefined)).toMatch(/^tg-/);
    expect(pending.waitingFor('globex')).toBe(2);
    // Its share is freed as its approvals are answered or run out.
    now += 20_000;
    expect(pending.add('acme:key-9', 20_000, () => undefined)).toMatch(/^tg-/);
  });

  it("defaults a tenant's share to a tenth of the gateway's, never below one caller's", () => {
    const pending = new PendingAnswers({ max: 50, perOwner: 2 });
    const got = Array.from({ length: 5 }, (_, i) => pending.add(`t:k${i}`, 60_000, () => undefined));
    expect(got.filter((r) => typeof r === 'string')).toHaveLength(5);
    expect(pending.add('t:k9', 60_000, () => undefined)).toMatchObject({ scope: 'tenant', limit: 5 });
  });

  it('forgets an entry once its time is up, and takes no late answer', () => {
    let now = 1_000;
    const pending = new PendingAnswers({ max: 1, perOwner: 1 }, () => now);
    const delivered: unknown[] = [];
    const id = pending.add('a', 500, (m) => delivered.push(m)) as string;
    now += 501;
    expect(pending.answer(answer(id), 'a')).toBe(false);
    expect(delivered).toHaveLength(0);
    expect(pending.add('b', 500, () => undefined)).toMatch(/^tg-/); // the expired one no longer counts
    expect(pending.size).toBe(1);
  });

  it('takes an answer only from the caller it was asked of, once, and only for ids it gave', () => {
    const pending = new PendingAnswers({ max: 10, perOwner: 10 });
    const delivered: unknown[] = [];
    const id = pending.add('tenant-a:alice', 60_000, (m) => delivered.push(m)) as string;
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
    expect(second.content[0].text).toContain('you have 1 of 1 approvals waiting');
    expect(second._meta[ERROR_META_KEY].details).toMatchObject({ scope: 'caller', limit: 1 });
    expect(second._meta[ERROR_META_KEY].details.retry_after_seconds).toBeGreaterThanOrEqual(1);
    release({ action: 'accept', content: { approve: true } });
    const done: any = await first;
    expect(done.isError).not.toBe(true);
    expect(await exists('110')).toBe(false);
    expect(await exists('111')).toBe(true);
    await client.close();
  });
});
