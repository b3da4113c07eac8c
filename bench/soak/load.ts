// The mixed load of the soak benchmark: what 30 busy agents send a gateway for hours, over REST and over MCP
// in both protocol eras, across five tenants (the default and four keys of their own), every write with a
// new Idempotency-Key as a careful client sends it. Each kind of call is checked once before the load starts
// (`checkEveryKind`), so a soak never measures a gateway that answers errors.
import { randomUUID } from 'node:crypto';

export const DEMO_TOKEN = 'soak-demo-token-0123456789';
export const TENANT_KEYS = ['acme', 'globex', 'initech', 'umbrella'].map((tenant) => ({
  name: `soak-${tenant}`,
  token: `soak-${tenant}-token-0123456789`,
  permissions: ['*'],
  tenant,
}));
const tokens = [DEMO_TOKEN, ...TENANT_KEYS.map((k) => k.token)];

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const accept = 'application/json, text/event-stream';

interface Call {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** A string a good answer contains. */
  readonly expect: string;
}

const rest = (token: string, tool: string, args: unknown, extra: Record<string, string> = {}): Call => ({
  path: `/v1/tools/${tool.replace('_', '/')}`,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra },
  body: JSON.stringify(args),
  expect: '"success":true',
});

const modern = (token: string, method: string, params: Record<string, unknown>, name?: string): Call => ({
  path: '/mcp',
  headers: {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  expect: '"result"',
});

const legacy = (token: string, method: string, params: Record<string, unknown>, id = 1): Call => ({
  path: '/mcp',
  headers: {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept,
    'mcp-protocol-version': '2025-11-25',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  expect: '"result"',
});

const initialize = (token: string): Call =>
  legacy(token, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: `soak-${randomUUID().slice(0, 8)}`, version: '1' },
  });

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** The kinds of call and their share of the load (weights add up to 100). */
export const KINDS: ReadonlyArray<{ name: string; weight: number; calls: (token: string) => Call[] }> = [
  { name: 'REST getContact', weight: 20, calls: (t) => [rest(t, 'crm_getContact', { contact_id: '101' })] },
  {
    name: 'REST listRecords',
    weight: 10,
    calls: (t) => [rest(t, 'records_listRecords', { app_id: pick([3001, 3002, 3003]), limit: 20 })],
  },
  {
    name: 'REST searchContacts',
    weight: 5,
    calls: (t) => [rest(t, 'crm_searchContacts', { query: pick(['maria', 'acme', 'lee']) })],
  },
  { name: 'REST listChildren', weight: 5, calls: (t) => [rest(t, 'files_listChildren', {})] },
  {
    name: 'REST write (new Idempotency-Key)',
    weight: 15,
    calls: (t) => [
      rest(
        t,
        'crm_updateContact',
        { contact_id: '101', values: { jobtitle: `Soak ${Math.floor(Math.random() * 1e6)}` } },
        { 'idempotency-key': randomUUID() },
      ),
    ],
  },
  {
    name: 'MCP 2026-07-28 tools/call',
    weight: 20,
    calls: (t) => [
      modern(t, 'tools/call', { name: 'crm_getContact', arguments: { contact_id: '101' } }, 'crm_getContact'),
    ],
  },
  { name: 'MCP 2026-07-28 tools/list', weight: 5, calls: (t) => [modern(t, 'tools/list', {})] },
  {
    name: 'MCP 2025-11-25 initialize + tools/call',
    weight: 15,
    calls: (t) => [
      initialize(t),
      legacy(t, 'tools/call', { name: 'records_listRecords', arguments: { app_id: 3001, limit: 5 } }, 2),
    ],
  },
  {
    name: 'MCP 2025-11-25 gateway_findTools',
    weight: 5,
    calls: (t) => [
      legacy(t, 'tools/call', {
        name: 'gateway_findTools',
        arguments: { query: pick(['delete a contact', 'share a file', 'list the leads']) },
      }),
    ],
  },
];

const totalWeight = KINDS.reduce((n, k) => n + k.weight, 0);
const pickKind = () => {
  let r = Math.random() * totalWeight;
  for (const k of KINDS) if ((r -= k.weight) < 0) return k;
  return KINDS[KINDS.length - 1]!;
};

const send = async (base: string, call: Call): Promise<boolean> => {
  const res = await fetch(base + call.path, { method: 'POST', headers: call.headers, body: call.body });
  const text = await res.text();
  return res.ok && text.includes(call.expect) && !text.includes('"isError":true');
};

export interface Tally {
  ok: number;
  failed: number;
  lastFailure?: string;
}

/** Throws unless every kind of call answers as it should once. */
export const checkEveryKind = async (base: string) => {
  for (const kind of KINDS)
    for (const token of [DEMO_TOKEN, TENANT_KEYS[0]!.token])
      for (const call of kind.calls(token)) {
        const res = await fetch(base + call.path, { method: 'POST', headers: call.headers, body: call.body });
        const text = await res.text();
        if (!res.ok || !text.includes(call.expect) || text.includes('"isError":true'))
          throw new Error(`${kind.name} answered ${res.status}: ${text.slice(0, 400)}`);
      }
};

/** `connections` loops sending the mix until `until()` says stop. */
export const runLoad = (base: string, connections: number, tally: Tally, until: () => boolean) =>
  Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) {
        const kind = pickKind();
        const token = pick(tokens);
        for (const call of kind.calls(token)) {
          const ok = await send(base, call).catch((e: unknown) => {
            tally.lastFailure = `${kind.name}: ${String(e)}`;
            return false;
          });
          if (ok) tally.ok++;
          else {
            tally.failed++;
            tally.lastFailure ??= kind.name;
          }
        }
      }
    }),
  );
