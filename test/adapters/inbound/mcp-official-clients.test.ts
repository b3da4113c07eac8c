import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { DEMO_TOKEN, post, testGateway } from '../../support/gateway.js';
import { servedGateway } from '../../support/served-gateway.js';

// Issue 27: the official clients in the order a real client runs them: connect (initialize, or
// server/discover), tools/list, then calls on the same client. After tools/list a client knows each tool's
// outputSchema and validates what it receives against it; the other MCP tests call tools on a client that
// never listed them, so a structuredContent that broke the schema went unseen there.

interface Caller {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

type Kind = 'v1 client (2025-11-25 initialize)' | 'v2 client, auto (2026-07-28)' | 'v2 client, legacy (initialize)';
const KINDS: readonly Kind[] = [
  'v1 client (2025-11-25 initialize)',
  'v2 client, auto (2026-07-28)',
  'v2 client, legacy (initialize)',
];

const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '100000' });
const served = servedGateway(gateway);
const { open } = served;

/** An official client with the bearer header on every request, as an agent host configures one. */
const connect = async (kind: Kind): Promise<Caller> => {
  const url = new URL(`${served.base()}/mcp`);
  const requestInit = { headers: { authorization: `Bearer ${DEMO_TOKEN}` } };
  let caller: Caller;
  if (kind === 'v1 client (2025-11-25 initialize)') {
    const client = new V1Client({ name: 'issue-27-v1', version: '1.0.0' });
    await client.connect(new V1Transport(url, { requestInit }));
    caller = {
      listTools: () => client.listTools(),
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
    };
  } else {
    const mode = kind === 'v2 client, auto (2026-07-28)' ? 'auto' : 'legacy';
    const client = new V2Client({ name: `issue-27-v2-${mode}`, version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new V2Transport(url, { requestInit }));
    expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
    caller = {
      listTools: () => client.listTools(),
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
    };
  }
  open.push(caller);
  return caller;
};

/** The text a model is given: every text block of the result. */
const textOf = (result: any): string =>
  (result.content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

/** A call that may throw (the way the bug showed itself), turned into a value the test can read. */
const attempt = async (caller: Caller, name: string, args: Record<string, unknown>) =>
  caller.callTool(name, args).then(
    (result) => ({ result, thrown: undefined }),
    (e: unknown) => ({ result: undefined, thrown: e as { code?: number; message?: string } }),
  );

describe.each(KINDS)('an official MCP client after tools/list: %s', (kind) => {
  let caller: Caller;
  beforeAll(async () => {
    caller = await connect(kind);
    const { tools } = await caller.listTools();
    // The tools these calls use declare output schemas, so the client validates what they return.
    for (const name of ['crm_getContact', 'records_getRecord']) {
      expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    }
  });

  it('gets a success as text and as structuredContent that passes the outputSchema', async () => {
    const { result, thrown } = await attempt(caller, 'crm_getContact', { contact_id: '101' });
    expect(thrown?.message).toBeUndefined();
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Maria Alvarez');
    expect(result.structuredContent).toMatchObject({ id: '101' });
  });

  it.each([
    ['crm_getContact', { contact_id: '999999' }, 'NOT_FOUND', 'No contact with id 999999'],
    ['records_getRecord', { record_id: 1 }, 'NOT_FOUND', 'Record 1 does not exist'],
    ['crm_getContact', { contact_id: true }, 'INVALID_PARAMETER', 'Parameter "contact_id" must be a numeric string'],
  ] as const)('sees the error text of %s %j (%s), with its details in _meta', async (name, args, code, words) => {
    const rest = await post(gateway, `/v1/tools/${name.replace('_', '/')}`, args);
    const { result, thrown } = await attempt(caller, name, args);
    // Before issue 27 the v1 client threw here: "MCP error -32602: Structured content does not match the
    // tool's output schema", and the model never saw the message.
    expect(thrown?.message).toBeUndefined();
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain(code);
    expect(text).toContain(words);
    expect(text).toContain(rest.body.error.message);
    // No structuredContent on an error: it could only fail the tool's outputSchema.
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[ERROR_META_KEY]).toEqual(rest.body.error);
  });

  it('gets an unknown tool as a -32602 protocol error with the gateway’s did-you-mean text', async () => {
    const { result, thrown } = await attempt(caller, 'crm_getContacts', { contact_id: '101' });
    expect(result).toBeUndefined();
    expect(thrown?.code).toBe(-32602);
    expect(thrown?.message).toContain('Did you mean "crm_getContact"?');
  });

  it('still works after the errors: the same client calls again', async () => {
    const { result } = await attempt(caller, 'records_getRecord', { record_id: 70025 });
    expect(result?.isError, textOf(result)).toBeFalsy();
  });
});
