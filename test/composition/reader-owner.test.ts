import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ParserPool } from '../../adapters/outbound/documents/parser-pool.js';
import { DEMO_WEB_HOST } from '../../adapters/outbound/web/demo-web.js';
import { principal } from '../../composition/gateway.js';
import { testGateway } from '../support/gateway.js';

// Issue 38: the document readers give each tenant a share, so every read must say whose it is. files_readFile
// and web_fetch hand the caller's tenant to the pool (before, every read came from nobody in particular, and
// one tenant's backlog held every reader).

const g = testGateway();
const acme = principal('acme-bot', ['*'], 'acme');
afterEach(() => vi.restoreAllMocks());
afterAll(() => g.close());

describe("the document readers are told the caller's tenant", () => {
  it('for files_readFile and web_fetch', async () => {
    const owners: unknown[] = [];
    const run = ParserPool.prototype.run;
    vi.spyOn(ParserPool.prototype, 'run').mockImplementation(function (this: ParserPool, ...args) {
      owners.push(args[2]);
      return run.apply(this, args);
    });
    const written = await g.callTool(
      'files_writeFile',
      { folder_id: 'home', file_name: 'page.html', content: '<html><body><p>Hello acme</p></body></html>' },
      { principal: acme, format: 'json' },
    );
    const id = (written.body as { data: { Id: string } }).data.Id;
    const read = await g.callTool('files_readFile', { item_id: id }, { principal: acme, format: 'json' });
    expect(read.status).toBe(200);
    const page = await g.callTool(
      'web_fetch',
      { url: `https://${DEMO_WEB_HOST}/companies/rosegold-realty` },
      { principal: acme },
    );
    expect(page.status).toBe(200);
    expect(owners).toEqual(['acme', 'acme']);
  });
});
