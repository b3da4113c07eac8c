import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_META_KEY } from '../../../adapters/inbound/mcp/mcp-server.js';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { DEMO_TOKEN, testGateway } from '../../support/gateway.js';
import { servedGateway } from '../../support/served-gateway.js';

// Issue 30, tool search: /mcp?discovery=search through the official v2 client in both eras, as a client runs
// it: tools/list first, then find, describe and call through the meta tools.

const READ_ALL = 'discovery-reader-token-0123456789';
const ACME = 'discovery-acme-token-0123456789';
const ACME_CRM = 'discovery-acme-crm-token-0123456789';
const META = ['gateway_findTools', 'gateway_describeTool', 'gateway_callTool'];

const gateway = testGateway(
  {},
  {
    RATE_LIMIT_PER_MINUTE: '100000',
    GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
    GATEWAY_API_KEYS: JSON.stringify([
      {
        name: 'reader',
        token: READ_ALL,
        permissions: ['files:read', 'records:read', 'workspaces:read', 'crm:read', 'web:read'],
      },
      { name: 'acme', token: ACME, permissions: ['*'], tenant: 'acme' },
      { name: 'acme-crm', token: ACME_CRM, permissions: ['crm:*'], tenant: 'acme' },
    ]),
    TENANT_SETTINGS: JSON.stringify({ acme: { tool_search_above: 20 } }),
  },
);
const served = servedGateway(gateway);
const { open } = served;

type Era = '2026-07-28' | '2025-11-25';
const ERAS: readonly Era[] = ['2026-07-28', '2025-11-25'];

const connect = async (era: Era, query: string, token = DEMO_TOKEN): Promise<Client> => {
  const mode = era === '2026-07-28' ? { pin: '2026-07-28' as const } : ('legacy' as const);
  const client = new Client({ name: 'discovery-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${served.base()}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe(era === '2026-07-28' ? 'modern' : 'legacy');
  open.push(client);
  return client;
};

const list = (client: Client) => client.listTools(undefined, { cacheMode: 'bypass' } as never);
const textOf = (result: any): string => (result.content as { text: string }[]).map((b) => b.text).join('\n');
const found = async (client: Client, query: string, extra: Record<string, unknown> = {}) => {
  const result: any = await client.callTool({ name: 'gateway_findTools', arguments: { query, ...extra } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent.tools as { name: string }[]).map((t) => t.name);
};

describe.each(ERAS)('discovery mode through the official v2 client, %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(era, '?discovery=search');
  });

  it('lists the three meta tools, with schemas that compile in Ajv strict mode', async () => {
    const { tools, _meta } = await list(client);
    expect(tools.map((t) => t.name)).toEqual(META);
    for (const t of tools) new Ajv({ strict: true }).compile(t.inputSchema as object);
    expect(tools[0]!.description).toContain('60 this connection can use');
    expect(_meta?.[CATALOGUE_META_KEY]).toEqual(expect.any(String));
  });

  it('finds, describes and calls a tool', async () => {
    await list(client);
    const names = await found(client, 'delete the contact with email jane@acme.com');
    expect(names[0]).toBe('crm_deleteContact');

    const find: any = await client.callTool({
      name: 'gateway_findTools',
      arguments: { query: 'read a contact by its id' },
    });
    expect(textOf(find)).toMatch(/^1\. \*\*crm_getContact\*\* \(Read\): /m);
    expect(find.structuredContent.tools.find((t: any) => t.name === 'crm_getContact').required).toEqual([
      { name: 'contact_id', type: 'string', from: 'crm_searchContacts' },
    ]);

    const described: any = await client.callTool({
      name: 'gateway_describeTool',
      arguments: { name: 'crm_getContact' },
    });
    const full = (await connect(era, '')).listTools();
    const same = (await full).tools.find((t) => t.name === 'crm_getContact');
    expect(described.structuredContent.tool).toEqual(JSON.parse(JSON.stringify(same)));
    expect(textOf(described)).toContain('"inputSchema"');

    const called: any = await client.callTool({
      name: 'gateway_callTool',
      arguments: { name: 'crm_getContact', arguments: { contact_id: '101' } },
    });
    const direct: any = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '101' } });
    expect(called.isError).toBeFalsy();
    expect(textOf(called)).toContain('Maria Alvarez');
    expect(called.structuredContent).toEqual(direct.structuredContent);
  });

  it('calls through the same path as tools/call: errors, idempotency keys and confirmation alike', async () => {
    const viaMeta: any = await client.callTool({
      name: 'gateway_callTool',
      arguments: { name: 'crm_getContact', arguments: { contact_id: '999999' } },
    });
    const direct: any = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '999999' } });
    expect(viaMeta).toEqual(direct);

    const key = `discovery-${era}-${Date.now()}`;
    const create = () =>
      client.callTool({
        name: 'gateway_callTool',
        arguments: { name: 'crm_createContact', arguments: { values: { email: `${key}@example.com` } } },
        _meta: { idempotency_key: key },
      });
    const first: any = await create();
    const again: any = await create();
    expect(first.isError).toBeFalsy();
    expect(again.structuredContent).toEqual(first.structuredContent);

    // a Destructive call meets the same gate (confirmation or approval) whichever way it is named
    const gate = async (r: Promise<any>) => {
      const result = await r.catch((e: unknown) => ({ thrown: (e as Error).constructor.name }));
      return {
        isError: result.isError,
        code: result._meta?.[ERROR_META_KEY]?.code,
        thrown: result.thrown,
        kind: Object.keys(result).sort(),
      };
    };
    const args = { contact_id: '102' };
    const directGate = await gate(client.callTool({ name: 'crm_deleteContact', arguments: args }));
    // not carried out: a confirmation (or a person's approval) is asked for first
    expect(directGate.kind).not.toEqual(['content', 'structuredContent']);
    expect(
      await gate(
        client.callTool({ name: 'gateway_callTool', arguments: { name: 'crm_deleteContact', arguments: args } }),
      ),
    ).toEqual(await gate(client.callTool({ name: 'crm_deleteContact', arguments: args })));
  });

  it('still calls a real tool by name in discovery mode', async () => {
    const result: any = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '101' } });
    expect(textOf(result)).toContain('Maria Alvarez');
  });

  it('answers a name that is no tool with an isError result suggesting tools by meaning (issue 41)', async () => {
    const viaCall: any = await client.callTool({
      name: 'gateway_callTool',
      arguments: { name: 'crm_findPerson', arguments: { email: 'jane@acme.com' } },
    });
    expect(viaCall.isError).toBe(true);
    expect(textOf(viaCall)).toContain('No tool "crm_findPerson" is available on this connection');
    expect(viaCall._meta[ERROR_META_KEY].details.did_you_mean).toContain('crm_searchContacts');
    const direct: any = await client.callTool({ name: 'records_listRows', arguments: { app_id: 3001 } });
    expect(direct.isError).toBe(true);
    expect(direct._meta[ERROR_META_KEY].details.did_you_mean).toContain('records_listRecords');
    const described: any = await client.callTool({
      name: 'gateway_describeTool',
      arguments: { name: 'crm_getContacts' },
    });
    expect(described.isError).toBe(true);
    expect(described._meta[ERROR_META_KEY].details.did_you_mean[0]).toBe('crm_getContact');
  });

  it('answers wrong meta arguments with an error the model can act on, and bounds the query', async () => {
    const long: any = await client.callTool({ name: 'gateway_findTools', arguments: { query: 'x'.repeat(100_000) } });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toContain('at most 500 characters');
    const many = await client.callTool({
      name: 'gateway_findTools',
      arguments: { query: Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ') },
    });
    expect((many as any).isError).toBeFalsy();
    const unknown: any = await client.callTool({ name: 'gateway_findTools', arguments: { q: 'contacts' } });
    expect(textOf(unknown)).toContain('has no parameter "q"');
    const limit: any = await client.callTool({
      name: 'gateway_findTools',
      arguments: { query: 'contact', limit: 500 },
    });
    expect(limit._meta[ERROR_META_KEY].details).toMatchObject({ parameter: 'limit' });
    const nothing: any = await client.callTool({ name: 'gateway_findTools', arguments: { query: 'zzqx wibble' } });
    expect(textOf(nothing)).toContain('No tool matched');
    const self: any = await client.callTool({
      name: 'gateway_callTool',
      arguments: { name: 'gateway_callTool', arguments: {} },
    });
    expect(self.isError).toBe(true);
  });
});

describe('permissions and toolsets', () => {
  it('never finds or describes a tool the caller cannot call (a read-only key finds no write tool)', async () => {
    const client = await connect('2026-07-28', '?discovery=search', READ_ALL);
    const { tools } = await list(client);
    expect(tools.find((t) => t.name === 'gateway_callTool')!.annotations).toMatchObject({ readOnlyHint: true });
    const writes = new Set(
      gateway
        .listTools()
        .filter((t) => !t.readOnlyHint)
        .map((t) => t.name),
    );
    for (const query of ['delete the contact', 'create a folder', 'update a record', 'remove a member from a space']) {
      const names = await found(client, query, { limit: 20 });
      expect(names.filter((n) => writes.has(n))).toEqual([]);
    }
    const described: any = await client.callTool({
      name: 'gateway_describeTool',
      arguments: { name: 'crm_deleteContact' },
    });
    expect(described.isError).toBe(true);
    expect(textOf(described)).toContain('No tool "crm_deleteContact" is available on this connection');
  });

  it('keeps to the toolsets and a group filter', async () => {
    const client = await connect('2025-11-25', '?discovery=search&groups=crm,web');
    const names = await found(client, 'delete a file or a folder', { limit: 20 });
    expect(names.every((n) => n.startsWith('crm_') || n.startsWith('web_'))).toBe(true);
    const web = await found(client, 'read a page', { groups: ['web'] });
    expect(web.length).toBeGreaterThan(0);
    expect(web.every((n) => n.startsWith('web_'))).toBe(true);
  });
});

describe('pins, automatic mode and the catalogue version', () => {
  it('lists pinned tools beside the meta tools', async () => {
    const client = await connect('2026-07-28', '?discovery=search&pin=crm_getContact,files_listChildren');
    const { tools } = await list(client);
    expect(tools.map((t) => t.name)).toEqual([...META, 'crm_getContact', 'files_listChildren']);
  });

  it('refuses an unknown or not-permitted pin with a 400 at the endpoint', async () => {
    // unknown; not permitted to a read-only key; outside the connection's toolsets
    for (const [pin, token, groups] of [
      ['crm_nope', DEMO_TOKEN, ''],
      ['crm_deleteContact', READ_ALL, ''],
      ['files_getItem', DEMO_TOKEN, '&groups=crm'],
    ] as const) {
      const res = await fetch(`${served.base()}/mcp?discovery=search&pin=${pin}${groups}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.message).toContain(`"${pin}" is not a tool this token may call`);
    }
    const bad = await fetch(`${served.base()}/mcp?discovery=sometimes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(400);
  });

  it('turns on by itself above the tenant tool_search_above, and discovery=list turns it off', async () => {
    const acme = await list(await connect('2026-07-28', '', ACME));
    expect(acme.tools.map((t) => t.name)).toEqual(META);
    // the same tenant's key that sees 6 tools (crm only) is under the size and gets its tools
    const small = await list(await connect('2026-07-28', '', ACME_CRM));
    expect(small.tools.map((t) => t.name).every((n) => n.startsWith('crm_'))).toBe(true);
    const asked = await list(await connect('2026-07-28', '?discovery=list', ACME));
    expect(asked.tools.length).toBe(gateway.listTools().length);
    // another tenant keeps the catalogue
    const other = await list(await connect('2026-07-28', ''));
    expect(other.tools.length).toBe(gateway.listTools().length);
  });

  it('names a different catalogue version per mode, pins and visible set', async () => {
    const versionOf = async (query: string, token = DEMO_TOKEN) =>
      (await list(await connect('2026-07-28', query, token)))._meta?.[CATALOGUE_META_KEY];
    const versions = [
      await versionOf(''),
      await versionOf('?discovery=search'),
      await versionOf('?discovery=search&pin=crm_getContact'),
      await versionOf('?discovery=search', READ_ALL),
      await versionOf('?discovery=search&groups=crm'),
    ];
    expect(new Set(versions).size).toBe(versions.length);
    expect(await versionOf('?discovery=search')).toBe(versions[1]);
  });
});

describe('REST listing in each dialect', () => {
  it('gives the meta tools for discovery=search, clean in the OpenAI and Gemini forms', async () => {
    for (const dialect of ['openai', 'gemini', 'anthropic', 'mcp']) {
      const res = await gateway.http.request(`/v1/tools?dialect=${dialect}&discovery=search`);
      expect(res.status).toBe(200);
      const body: any = await res.json();
      const names = body.data.tools.map((t: any) => t.name ?? t.function?.name);
      expect(names).toEqual(META);
      if (dialect === 'openai') {
        const find = body.data.tools[0].function;
        expect(find.strict).toBe(true);
        expect(find.parameters.required).toEqual(['query', 'groups', 'limit']);
        // an open "arguments" object has no strict form: sent as JSON Schema with strict false
        expect(body.data.tools[2].function.strict).toBe(false);
      }
      if (dialect === 'gemini') {
        expect(body.data.tools[0].parameters.properties.query.type).toBe('STRING');
        expect(body.data.tools[2].parametersJsonSchema).toBeDefined();
      }
    }
    const bad = await gateway.http.request('/v1/tools?discovery=maybe');
    expect(bad.status).toBe(400);
  });
});
