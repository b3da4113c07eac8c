import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildViewHtml, VIEW_NAMES } from '../../../../adapters/inbound/mcp/views/view-html.js';
import { startServerProcess, type ServerProcess } from '../../../support/server-process.js';
import { UI_CAPABILITIES } from './view-rpc.js';

// Issue 43: "views are static bundles built at `npm run build`". The server in a process of its own, over a
// real socket: each view's resources/read is the page the sources make, byte for byte, and the same for
// two callers. By default the sources run (they bundle on first use); CI runs this file against the build
// too (GATEWAY_ENTRY=dist/composition/main.js in .ci/run), where the pages are the files scripts/build-views.ts
// wrote beside the bundled server, read without esbuild.

const ADMIN = 'served-views-admin-0123456789';
const READER = 'served-views-reader-0123456789';
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({
    GATEWAY_DEMO_TOKEN: '',
    GATEWAY_API_KEYS: JSON.stringify([
      { name: 'admin', token: ADMIN, permissions: ['*'] },
      { name: 'reader', token: READER, permissions: ['crm:read'] },
    ]),
  });
}, 60_000);
afterAll(() => {
  server?.child.kill('SIGKILL');
});

const read = async (uri: string, token: string) => {
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      'mcp-name': uri,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: {
        uri,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'view-host', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': UI_CAPABILITIES,
        },
      },
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { contents: { mimeType: string; text: string }[] } };
  return body.result.contents[0]!;
};

describe('the views the running server serves', () => {
  it.each(VIEW_NAMES)('%s: the page the sources make, byte for byte, for any caller', async (name) => {
    const uri = `ui://tool-gateway/${name}`;
    const admin = await read(uri, ADMIN);
    expect(admin.mimeType).toBe('text/html;profile=mcp-app');
    expect(admin.text).toBe(await buildViewHtml(name));
    expect((await read(uri, READER)).text).toBe(admin.text);
  });
});
