import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingSettings } from '../../adapters/outbound/observability/tracing.js';
import { routeTemplate } from '../../adapters/outbound/http/vendor-spans.js';
import { loadConfig } from '../../composition/config.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer, HUBSPOT_TEST_TOKEN } from '../fakes/hubspot-server.js';
import { OtlpReceiver, type ReceivedSpan } from '../fakes/otlp-receiver.js';
import { TEST_DATA_DIR } from '../support/data-dir.js';
import { request } from '../support/gateway.js';

// OpenTelemetry (issues 32, 39): a tool call is a request span (SERVER) continuing the caller's trace (HTTP
// traceparent, or MCP _meta), its `execute_tool` child (INTERNAL), and each vendor HTTP call a child of that,
// exported over OTLP/HTTP to a receiver standing in for a collector.

const TOKEN = 'tracing-token-0123456789';
const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

let hubspot: HubSpotServer;
let receiver: OtlpReceiver;
const open: Gateway[] = [];

const gateway = (env: Record<string, string> = {}): Gateway => {
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
      OTEL_SERVICE_NAME: 'gateway-under-test',
      ...env,
    },
    logger: pino({ level: process.env.TRACE_TEST_LOG ?? 'silent' }),
  });
  open.push(g);
  return g;
};

/** A fresh W3C trace id and parent span id, as a caller inside a trace sends them. */
const callerContext = () => {
  const hex = (n: number) =>
    [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const traceId = hex(16);
  const parentId = hex(8);
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
};

/** Ends the gateway's tracing (sending what is buffered) and reads the spans of one trace. */
const exported = async (g: Gateway, traceId: string): Promise<ReceivedSpan[]> => {
  await g.close();
  return receiver.trace(traceId);
};

const toolSpanOf = (spans: ReceivedSpan[], tool: string) => spans.find((s) => s.name === `execute_tool ${tool}`);
/** The span a span is the child of. */
const parentOf = (spans: readonly ReceivedSpan[], span: ReceivedSpan | undefined) =>
  spans.find((s) => s.spanId === span?.parentSpanId);

beforeAll(async () => {
  hubspot = await HubSpotServer.start();
  receiver = await OtlpReceiver.start();
});
afterAll(async () => {
  for (const g of open) await g.close().catch(() => undefined);
  await hubspot.close();
  await receiver.close();
});

describe('a caller that does not sample (traceparent flags 00)', () => {
  it("still gets the tool call's span, in the caller's trace (issue 38)", async () => {
    const g = gateway();
    const { traceId, parentId } = callerContext();
    const answer = await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'contacts' },
      token: TOKEN,
      headers: { traceparent: `00-${traceId}-${parentId}-00` },
    });
    expect(answer.status).toBe(200);
    const spans = await exported(g, traceId);
    const tool = toolSpanOf(spans, 'crm_getProperties');
    expect(parentOf(spans, tool)).toMatchObject({ parentSpanId: parentId, kind: SERVER });
    expect(spans.filter((s) => s.parentSpanId === tool!.spanId).length).toBeGreaterThan(0);
  });
});

describe('a REST call with a traceparent header', () => {
  it("is one trace: the request continues the caller span, the tool call is its child, and its vendor call (retried once) the tool call's", async () => {
    const g = gateway();
    const { traceId, parentId, traceparent } = callerContext();
    hubspot.failNext(503, { status: 'error', message: 'Service Unavailable', category: 'SERVICE_UNAVAILABLE' });
    const answer = await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'contacts' },
      token: TOKEN,
      headers: { traceparent, tracestate: 'caller=abc' },
    });
    expect(answer.status).toBe(200);
    const spans = await exported(g, traceId);
    const tool = toolSpanOf(spans, 'crm_getProperties');
    expect(parentOf(spans, tool)).toMatchObject({
      name: 'POST /v1/tools/crm/getProperties',
      parentSpanId: parentId,
      kind: SERVER,
      attributes: expect.objectContaining({
        'http.request.method': 'POST',
        'http.route': '/v1/tools/crm/getProperties',
        'http.response.status_code': 200,
      }),
    });
    expect(tool).toMatchObject({
      kind: INTERNAL,
      serviceName: 'gateway-under-test',
      attributes: expect.objectContaining({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'crm_getProperties',
        'gen_ai.tool.call.id': expect.any(String),
        'gateway.tenant': 'default',
        'gateway.tool.group': 'crm',
        'gateway.surface': 'rest',
        'gateway.outcome': 'ok',
        'gateway.status': 200,
      }),
    });
    const vendor = spans.filter((s) => s.parentSpanId === tool!.spanId);
    expect(vendor).toEqual([
      expect.objectContaining({
        name: 'GET /crm/v3/properties/contacts',
        kind: CLIENT,
        attributes: expect.objectContaining({
          'gateway.vendor': 'HubSpot',
          'http.request.method': 'GET',
          'url.template': '/crm/v3/properties/contacts',
          'http.response.status_code': 200,
          'http.request.resend_count': 1,
          'server.address': '127.0.0.1',
        }),
      }),
    ]);
    // Nothing of the caller's data: no query string, no token.
    expect(JSON.stringify(spans)).not.toContain(HUBSPOT_TEST_TOKEN);
    expect(JSON.stringify(spans)).not.toContain(TOKEN);
  });

  it('marks a failed vendor call and a refused tool call, and a call without traceparent starts its own trace', async () => {
    const g = gateway();
    const answer = await request(g, 'POST', '/v1/tools/crm/getContact', {
      body: { contact_id: '99999' },
      token: TOKEN,
    });
    expect(answer.status).toBe(404);
    await g.close();
    const tool = receiver.spans.filter((s) => s.name === 'execute_tool crm_getContact').at(-1)!;
    const server = parentOf(receiver.spans, tool);
    expect(server).toMatchObject({
      name: 'POST /v1/tools/crm/getContact',
      attributes: expect.objectContaining({ 'http.response.status_code': 404 }),
    });
    expect(server!.parentSpanId).toBeUndefined();
    expect(tool.attributes).toMatchObject({
      'gateway.outcome': 'refused',
      'gateway.status': 404,
      'error.type': 'NOT_FOUND',
    });
    const [vendor] = receiver.spans.filter((s) => s.parentSpanId === tool.spanId);
    expect(vendor).toMatchObject({
      name: 'GET /crm/v3/objects/contacts/{id}',
      attributes: expect.objectContaining({ 'http.response.status_code': 404, 'error.type': '404' }),
      status: { code: ERROR },
    });
  });

  it('ignores a malformed traceparent: the call runs and its request span is a root', async () => {
    const g = gateway();
    const answer = await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'companies' },
      token: TOKEN,
      headers: { traceparent: `00-${'z'.repeat(32)}-${'0'.repeat(16)}-01`, tracestate: 'x'.repeat(10_000) },
    });
    expect(answer.status).toBe(200);
    await g.close();
    const tool = receiver.spans.filter((s) => s.name === 'execute_tool crm_getProperties').at(-1)!;
    expect(parentOf(receiver.spans, tool)?.parentSpanId).toBeUndefined();
    expect(parentOf(receiver.spans, tool)?.kind).toBe(SERVER);
    expect(tool.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('an MCP tools/call with traceparent in _meta (SEP-414)', () => {
  it('continues the trace named in _meta, over the header, after the client lists the tools', async () => {
    const g = gateway();
    let server: ServerType | undefined;
    await new Promise<void>((resolve) => {
      server = serve({ fetch: g.http.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    const url = new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`);
    const viaHeader = callerContext();
    const viaMeta = callerContext();
    const client = new Client(
      { name: 'tracing-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}`, traceparent: viaHeader.traceparent } },
      }),
    );
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain('crm_getProperties');
    const result = await client.callTool({
      name: 'crm_getProperties',
      arguments: { object_type: 'contacts' },
      _meta: { traceparent: viaMeta.traceparent },
    });
    expect(result.isError).toBeFalsy();
    // Without _meta, the HTTP request's traceparent header is the parent.
    expect(
      (await client.callTool({ name: 'crm_getProperties', arguments: { object_type: 'contacts' } })).isError,
    ).toBeFalsy();
    await client.close();
    await new Promise((resolve) => server!.close(resolve));
    const spans = await exported(g, viaMeta.traceId);
    const tool = toolSpanOf(spans, 'crm_getProperties');
    expect(parentOf(spans, tool)).toMatchObject({
      name: 'tools/call crm_getProperties',
      kind: SERVER,
      parentSpanId: viaMeta.parentId,
      attributes: expect.objectContaining({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'crm_getProperties',
        'mcp.protocol.version': '2026-07-28',
        'jsonrpc.request.id': expect.any(String),
      }),
    });
    expect(tool).toMatchObject({
      kind: INTERNAL,
      attributes: expect.objectContaining({ 'gateway.surface': 'mcp', 'mcp.method.name': 'tools/call' }),
    });
    expect(spans.filter((s) => s.parentSpanId === tool!.spanId).map((s) => s.name)).toEqual([
      'GET /crm/v3/properties/contacts',
    ]);
    // One call in each trace: _meta wins over the header, and the header serves the call without _meta.
    expect(spans.filter((s) => s.name.startsWith('execute_tool'))).toHaveLength(1);
    expect(receiver.trace(viaHeader.traceId).filter((s) => s.name.startsWith('tools/call'))).toEqual([
      expect.objectContaining({ parentSpanId: viaHeader.parentId }),
    ]);
  });
});

describe('the OTLP protocol and switching tracing on', () => {
  it('sends http/protobuf by default (the OTLP default), carrying the trace id as bytes', async () => {
    const before = receiver.exports.length;
    const g = gateway({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '' });
    const { traceId, traceparent } = callerContext();
    await request(g, 'POST', '/v1/tools/crm/getProperties', {
      body: { object_type: 'contacts' },
      token: TOKEN,
      headers: { traceparent },
    });
    await g.close();
    const sent = receiver.exports.slice(before);
    expect(sent.map((e) => e.contentType)).toContain('application/x-protobuf');
    expect(sent.some((e) => e.body.includes(Buffer.from(traceId, 'hex')))).toBe(true);
  });

  it('is off unless the OTEL_* variables ask for it', () => {
    const url = 'http://127.0.0.1:4318';
    expect(tracingSettings({})).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: `${url}/` })).toEqual({
      url: `${url}/v1/traces`,
      protocol: 'http/protobuf',
      otlp: true,
      console: false,
      serviceName: 'tool-gateway',
    });
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ url: undefined, otlp: true });
    const loaded = loadConfig({});
    expect(loaded._tag === 'Right' && loaded.right.tracing).toBe(undefined);
  });

  it('refuses at start-up what it cannot export, naming the variable', () => {
    const problems = (env: Record<string, string>) => {
      const loaded = loadConfig(env);
      return loaded._tag === 'Left' ? loaded.left : [];
    };
    expect(problems({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP); got "grpc".',
    ]);
    expect(problems({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual([
      'OTEL_TRACES_EXPORTER must list otlp, console or none; got "zipkin".',
    ]);
  });
});

describe('route templates', () => {
  it('keep names and versions, and turn ids, emails and OData keys into {id}', () => {
    expect(routeTemplate('/crm/v3/objects/contacts/101?properties=email')).toBe('/crm/v3/objects/contacts/{id}');
    expect(routeTemplate('/crm/v3/objects/contacts/a%40b.example?idProperty=email')).toBe(
      '/crm/v3/objects/contacts/{id}',
    );
    expect(routeTemplate('/sf/v3/Items(fo1234-abcd)/Children')).toBe('/sf/v3/Items({id})/Children');
    expect(routeTemplate('/item/app/30001/filter/')).toBe('/item/app/{id}/filter/');
    expect(routeTemplate('https://acme.sf-api.example/sf/v3/Shares(s1)')).toBe('/sf/v3/Shares({id})');
    expect(routeTemplate(undefined)).toBe('/');
  });
});
