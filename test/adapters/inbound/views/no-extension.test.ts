import { afterAll, describe, expect, it } from 'vitest';
import { testGateway } from '../../../support/gateway.js';
import { legacy, modern, transcript } from './no-extension-transcript.js';

// Issue 43, done when: "a client without the extension sees byte-identical answers to today's". The
// transcript (no-extension-transcript.ts: tools/list and seven tools/call on 2026-07-28 and on 2025-11-25,
// and a NOT_CONNECTED answer on each) is held to __snapshots__/no-extension.txt byte for byte, approval
// tokens, connect tickets and request UUIDs aside.
//
// Where the snapshot comes from: the same transcript taken on the tree just before the views (d33166a, the
// parent of 87db931) is identical except for changes other issues made to every client meanwhile (issue 41:
// files_listChildren's `verbose` parameter and one word of web_search's description; issue 40:
// `execution.taskSupport` on seven tools for 2025-11-25 clients; with them the catalogue hash). And each
// commit of issue 43 that touched the views (87db931, 7225c24, b365530, d6f9c82, 2665ef1, b17741c, 85faa58)
// left it byte for byte as its parent had it. So: update this snapshot (`-u`) only for a change that is meant
// for every client, never for a change of the views.

const ACME = 'token-acme-views-0123456789';
const gateway = testGateway();
/** A tenant on HubSpot without a connection: every CRM call answers NOT_CONNECTED (nothing is contacted). */
const hub = testGateway(
  {},
  {
    CRM_BACKEND: 'hubspot',
    HUBSPOT_ACCESS_TOKEN: 'pat-na1-environment-token',
    HUBSPOT_BASE_URL: 'http://127.0.0.1:9',
    PUBLIC_BASE_URL: 'https://gateway.example',
    GATEWAY_API_KEYS: JSON.stringify([{ name: 'acme', token: ACME, permissions: ['*'], tenant: 'acme' }]),
  },
);
afterAll(async () => {
  await gateway.close();
  await hub.close();
});

describe('a client without the MCP Apps extension sees the answers it saw before views', () => {
  it('tools/list and tools/call on both revisions, byte for byte', async () => {
    const answers = await transcript(gateway, hub, ACME);
    expect(Object.keys(answers)).toHaveLength(2 + 14 + 2);
    for (const [what, raw] of Object.entries(answers)) {
      expect(raw, what).not.toMatch(/ui:\/\/|"views_|"ui":|approval card/);
      expect(raw.length, what).toBeGreaterThan(100);
    }
    const text = Object.entries(answers)
      .map(([what, raw]) => `### ${what}\n${raw}\n`)
      .join('');
    await expect(text).toMatchFileSnapshot('./__snapshots__/no-extension.txt');
  });

  it('declaring other capabilities, or the extension without the HTML profile, changes nothing', async () => {
    const list = async (capabilities: Record<string, unknown>) =>
      (await modern(gateway, 'tools/list', {}, capabilities)).raw;
    const plain = await list({});
    for (const capabilities of [
      { elicitation: { form: {}, url: {} } },
      { extensions: { 'io.example/other': {} } },
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } },
    ])
      expect(await list(capabilities), JSON.stringify(capabilities)).toBe(plain);
    const read = { name: 'records_listRecords', arguments: { app_id: 3002, limit: 2 } };
    expect((await modern(gateway, 'tools/call', read, { elicitation: { form: {} } })).raw).toBe(
      (await modern(gateway, 'tools/call', read)).raw,
    );
  });

  it('on 2025-11-25, a client that declared elicitation (a session id of its own) gets the same answers', async () => {
    const plain = await legacy(gateway);
    const eliciting = await legacy(gateway, { elicitation: { form: {}, url: {} } });
    expect((await eliciting('tools/list', {})).raw).toBe((await plain('tools/list', {})).raw);
    // Its call comes on an event stream (so that the gateway could ask its person: issue 30), with the
    // same message in it.
    const read = { name: 'files_readFile', arguments: { item_id: 'fid4a9d210ff841f' } };
    const streamed = (await eliciting('tools/call', read)).raw;
    expect(streamed).toBe(`event: message\ndata: ${(await plain('tools/call', read)).raw}\n\n`);
  });
});
