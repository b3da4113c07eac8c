import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer, HUBSPOT_TEST_TOKEN } from '../fakes/hubspot-server.js';
import { OtlpReceiver, type ReceivedSpan } from '../fakes/otlp-receiver.js';
import { TEST_DATA_DIR } from '../support/data-dir.js';
import { request } from '../support/gateway.js';

// Issue 39: tracing on OpenTelemetry's own context. One call is a chain in one trace, read back from the
// OTLP receiver stand-in: the request's SERVER span (REST: its route; MCP: `tools/call <tool>`), under it the
// INTERNAL `execute_tool <tool>` span, under that the vendor's CLIENT span. And the context manager the
// chain is carried by is OpenTelemetry's, registered when tracing starts.

const TOKEN = 'tracing-nesting-token-0123456789';
const [INTERNAL, SERVER, CLIENT] = [1, 2, 3];

let hubspot: HubSpotServer;
let receiver: OtlpReceiver;
const open: Gateway[] = [];

const gateway = (): Gateway => {
  const g = createGateway({
    env: {
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    },
    logger: pino({ level: 'silent' }),
  });
  open.push(g);
  return g;
};

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The chain from a trace's root down: each span's only child, as [name, kind] pairs. */
const chainOf = (spans: readonly ReceivedSpan[], rootParent: string): [string, number][] => {
  const chain: [string, number][] = [];
  let parent: string | undefined = rootParent;
  for (;;) {
    const children = spans.filter((s) => s.parentSpanId === parent);
    if (children.length !== 1) break;
    chain.push([children[0]!.name, children[0]!.kind]);
    parent = children[0]!.spanId;
  }
  return chain;
};

beforeAll(async () => {
  hubspot = await HubSpotServer.start();
  receiver = await OtlpReceiver.start();
});
afterAll(async () => {
  for (const g of open) await g.close().catch(() => undefined);
  await hubspot.close();
  await receiver.close();
});

describe('one call, one chain of spans', () => {
  it('REST: the route span, execute_tool under it, the vendor call under that', async () => {
    const g = gateway();
    const [traceId, callerSpan] = [hex(16), hex(8)];
    const answer = await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'contacts' },
      token: TOKEN,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(answer.status).toBe(200);
    await g.close();
    const spans = receiver.trace(traceId);
    expect(chainOf(spans, callerSpan)).toEqual([
      ['POST /v1/tools/crm/getProperties', SERVER],
      ['execute_tool crm_getProperties', INTERNAL],
      ['GET /crm/v3/properties/contacts', CLIENT],
    ]);
    expect(spans).toHaveLength(3);
  });

  it('MCP: tools/call <tool>, execute_tool under it, the vendor call under that', async () => {
    const g = gateway();
    let server: ServerType | undefined;
    await new Promise<void>((resolve) => {
      server = serve({ fetch: g.http.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    const url = new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`);
    const client = new Client({ name: 'nesting-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    const [traceId, callerSpan] = [hex(16), hex(8)];
    const result = await client.callTool({
      name: 'crm_getProperties',
      arguments: { object_type: 'contacts' },
      _meta: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
    await new Promise((resolve) => server!.close(resolve));
    await g.close();
    const spans = receiver.trace(traceId);
    expect(chainOf(spans, callerSpan)).toEqual([
      ['tools/call crm_getProperties', SERVER],
      ['execute_tool crm_getProperties', INTERNAL],
      ['GET /crm/v3/properties/contacts', CLIENT],
    ]);
    const request = spans.find((s) => s.kind === SERVER)!;
    expect(request.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'crm_getProperties',
      'mcp.protocol.version': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
    });
  });
});

describe("OpenTelemetry's context manager", () => {
  it('is registered once tracing starts: a value set with context.with survives an await', async () => {
    gateway();
    const key = createContextKey('tracing-nesting test');
    const seen = await context.with(ROOT_CONTEXT.setValue(key, 'kept'), async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return context.active().getValue(key);
    });
    // With no manager registered (the API's no-op one) the active context is always the root.
    expect(seen).toBe('kept');
  });
});
