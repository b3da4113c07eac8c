import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { DEMO_TOKEN, request } from '../../support/gateway.js';
import { mcpHarness } from './mcp-harness.js';

// A person approves what cannot be undone and what costs money (issue 30), through the official v2 client
// on both eras: 2026-07-28 (`input_required`, the client's driver asks its elicitation handler and retries
// with the answer and the requestState) and 2025-11-25 (`elicitation/create` on the tools/call's own
// stream, the answer posted back). The tenant's human_approval is the default, when_possible.
const h = mcpHarness({
  GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
  GATEWAY_CONFIRM_SECRET: 'a-confirm-secret-of-at-least-32-characters',
});
beforeAll(h.start);
afterAll(h.stop);

type Era = '2026-07-28' | '2025-11-25';
const ERAS: readonly Era[] = ['2026-07-28', '2025-11-25'];

interface Asked {
  readonly message: string;
  readonly requestedSchema: any;
}

/** The official v2 client declaring form elicitation; `person` answers each question (and records it). */
const connect = async (era: Era, person: (asked: Asked) => Promise<any> | any) => {
  const client = new Client(
    { name: 'approval-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const asked: Asked[] = [];
  client.setRequestHandler('elicitation/create', async (req: any) => {
    asked.push(req.params);
    return person(req.params);
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.base()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe(era === '2026-07-28' ? 'modern' : 'legacy');
  // As a real client does: the list first, then the call.
  const { tools } = await client.listTools();
  expect(tools.some((t: any) => t.name === 'crm_deleteContact')).toBe(true);
  return { client, asked };
};

const accept = () => ({ action: 'accept', content: { approve: true } });
const decline = () => ({ action: 'decline' });

const contactExists = async (id: string) =>
  (await h.gateway.callTool('crm_getContact', { contact_id: id }, { principal: principalOfDemo() })).status === 200;
const principalOfDemo = () => ({ id: 'demo', name: 'demo', tenant: 'default', permissions: new Set(['*']) }) as any;

const auditRows = async (tool: string) => {
  const res = await request(h.gateway, 'GET', `/v1/audit?tool=${tool}`);
  expect(res.status).toBe(200);
  return res.body.data.entries as any[];
};

describe.each(ERAS)('a person approves over MCP %s', (era) => {
  const [approved, declined, other] = era === '2026-07-28' ? ['101', '102', '103'] : ['106', '107', '108'];

  it('shows the preview, and the approved delete runs once, audited with approver person', async () => {
    const { client, asked } = await connect(era, accept);
    const done: any = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: approved } });
    expect(done.isError).not.toBe(true);
    expect(asked).toHaveLength(1);
    // The form shows the dry run's preview (what would go: the id and the name) and asks yes or no.
    expect(asked[0]!.message).toContain(`archive contact ${approved}`);
    // worded by what it does (issue 41): an archive that can be restored is not "cannot be undone"
    expect(asked[0]!.message).toMatch(/deletes data/);
    expect(asked[0]!.message).not.toMatch(/cannot be undone/);
    expect(asked[0]!.requestedSchema.properties.approve.type).toBe('boolean');
    expect(await contactExists(approved)).toBe(false);
    const rows = (await auditRows('crm_deleteContact')).filter((r) => r.targets.includes(approved));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, approver: 'person' });
    await client.close();
  });

  it('changes nothing when the person declines, and says a person declined', async () => {
    const { client, asked } = await connect(era, decline);
    const refused: any = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: declined } });
    expect(asked).toHaveLength(1);
    expect(refused.isError).toBe(true);
    expect(refused._meta[ERROR_META_KEY].code).toBe('APPROVAL_DECLINED');
    expect(refused.content[0].text).toContain('A person declined');
    expect(await contactExists(declined)).toBe(true);
    const rows = (await auditRows('crm_deleteContact')).filter((r) => r.targets.includes(declined));
    // the person who declined is the approver of record (issue 41), not nobody
    expect(rows.map((r) => [r.code, r.approver])).toEqual([['APPROVAL_DECLINED', 'person']]);
    await client.close();
  });

  it('treats an accepted form with approve unticked, or a cancel, as a no', async () => {
    for (const answer of [{ action: 'accept', content: { approve: false } }, { action: 'cancel' }]) {
      const { client } = await connect(era, () => answer);
      const refused: any = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: other } });
      expect(refused._meta[ERROR_META_KEY].code).toBe('APPROVAL_DECLINED');
      await client.close();
    }
    expect(await contactExists(other)).toBe(true);
  });

  it('asks before a skip trace (billed per match) and runs it once approved', async () => {
    const { client, asked } = await connect(era, accept);
    const args = { street: '1011 Rosegold St', zip: '11010', purpose: `approval test ${era}` };
    const done: any = await client.callTool({ name: 'skiptrace_skipTraceProperty', arguments: args });
    expect(done.isError).not.toBe(true);
    expect(done.content[0].text).toContain('Skip trace');
    expect(asked[0]!.message).toContain('1011 Rosegold St');
    expect(asked[0]!.message).toMatch(/billed/);
    const rows = (await auditRows('skiptrace_skipTraceProperty')).filter((r) => r.purpose === args.purpose);
    expect(rows.map((r) => r.approver)).toEqual(['person']);
    await client.close();
  });

  it('does not ask for reads or non-destructive writes', async () => {
    const { client, asked } = await connect(era, accept);
    const read: any = await client.callTool({ name: 'crm_getContact', arguments: { contact_id: '104' } });
    expect(read.isError).not.toBe(true);
    const dry: any = await client.callTool({
      name: 'crm_deleteContact',
      arguments: { contact_id: '104', dry_run: true },
    });
    expect(dry.isError).not.toBe(true);
    expect(dry.content[0].text).toContain('a person to approve it');
    expect(asked).toHaveLength(0);
    await client.close();
  });
});
