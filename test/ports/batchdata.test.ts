import { afterAll, describe, expect, it } from 'vitest';
import { BatchDataSkipTracer } from '../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { BatchDataServer } from '../fakes/batchdata-server.js';
import { skipTracerContract } from './skip-tracer.contract.js';

const servers: BatchDataServer[] = [];

skipTracerContract('BatchData (local stand-in)', async () => {
  const server = await BatchDataServer.start();
  servers.push(server);
  return {
    tracer: new BatchDataSkipTracer({ baseUrl: server.baseUrl, apiToken: server.token, timeoutMs: 5_000 }),
    close: () => server.close(),
  };
});

describe('BatchData stand-in after the contract suite', () => {
  afterAll(() => {
    servers.length = 0;
  });

  it('received only requests in the documented form', () => {
    expect(servers).toHaveLength(1);
    expect(servers[0]?.requests.length).toBeGreaterThan(0);
    expect(servers[0]?.requestViolations).toEqual([]);
  });
});
