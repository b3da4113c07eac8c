import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_TOKEN } from './gateway.js';

interface Served {
  readonly http: { readonly fetch: (request: Request) => Response | Promise<Response> };
  close(): Promise<void>;
}

/**
 * A test file's gateway on a real loopback socket (the official clients speak real HTTP), served before its
 * tests and closed after them with every client the file registered in `open`.
 */
export const servedGateway = (gateway: Served) => {
  let server: ServerType | undefined;
  let base = '';
  const open: { close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    base = await new Promise<string>((resolve) => {
      server = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await new Promise((resolve) => server?.close(resolve));
    await gateway.close();
  });
  return {
    /** `http://127.0.0.1:<port>` once served. */
    base: () => base,
    open,
    /** The official v2 client connected to /mcp with the demo token (closed after the file). */
    mcpClient: async (name: string, options?: ConstructorParameters<typeof Client>[1]): Promise<Client> => {
      const client = new Client({ name, version: '1.0.0' }, options);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
        }),
      );
      open.push(client);
      return client;
    },
  };
};
