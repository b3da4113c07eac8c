// Vendor calls and bytes per tool call: every tool of the vendor-backed groups (crm, files, records,
// workspaces, skiptrace), called through the gateway's REST surface against the local stand-ins of HubSpot,
// ShareFile, Podio and BatchData. Each stand-in sits behind a counting proxy, so the figures are what went
// over the wire, token requests included.
//
//   npm run bench:upstream            (prints a Markdown table; --json for the raw figures)
//
// Each tool is called twice in a row with the same arguments: "cold" is the first call of the run for that
// tool (caches may be empty), "warm" the second. Writes that cannot be repeated (deletes) report one call.
// A second table calls the next page of every paged read (twice, the second warm), and pages one ShareFile
// file through files_readFile ten times, counting its downloads from the storage host (not behind the proxy).
// A closing list names every read tool whose warm call cost more than one vendor call.
import 'reflect-metadata';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { configureResilience } from '../adapters/outbound/http/resilience.js';
import { InMemoryPodioAccount } from '../adapters/outbound/memory/in-memory-podio-account.js';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../composition/gateway.js';
import { BatchDataServer } from '../test/fakes/batchdata-server.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../test/fakes/hubspot-server.js';
import { PodioServer } from '../test/fakes/podio-server.js';
import { servePodioItems } from '../test/fakes/podio-items.js';
import { servePodioWorkspaces } from '../test/fakes/podio-workspaces.js';
import { SHAREFILE_TEST_CLIENT, startShareFileServer } from '../test/fakes/sharefile-server.js';

type Json = Record<string, unknown>;

interface Tally {
  calls: number;
  bytes: number;
}

/** A proxy that forwards to `target` and counts requests and answer bytes into `tally()`. */
const countingProxy = async (target: string, tally: () => Tally): Promise<{ url: string; server: Server }> => {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const t = tally();
    t.calls++;
    const out = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          t.bytes += chunk.length;
          res.write(chunk);
        });
        answer.on('end', () => res.end());
      },
    );
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

const TOKEN = 'bench-upstream-token-0123456789';
/** The read tools: their warm call should cost one vendor call. */
const READS = /_(get|list|search|filter|find|aggregate|read)[A-Z]/;

const main = async () => {
  configureResilience({ maxAttempts: 1 });
  const clock = new SystemClock();
  const hubspot = await HubSpotServer.start();
  const sharefile = await startShareFileServer({ clock });
  const podio = await PodioServer.start({ clock, refreshTokens: [{ refreshToken: 'bench-refresh', userId: 5001 }] });
  const account = InMemoryPodioAccount.withDemoData();
  servePodioItems(podio, clock, account);
  servePodioWorkspaces(podio, clock, account);
  const batchdata = await BatchDataServer.start();

  let current: Tally = { calls: 0, bytes: 0 };
  const tally = () => current;
  const proxies = await Promise.all([
    countingProxy(hubspot.baseUrl, tally),
    countingProxy(sharefile.url, tally),
    countingProxy(podio.baseUrl, tally),
    countingProxy(batchdata.baseUrl, tally),
  ]);
  const [hs, sf, po, bd] = proxies.map((p) => p.url) as [string, string, string, string];

  const gateway: Gateway = createGateway({
    env: {
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_DATA_DIR: process.env['GATEWAY_DATA_DIR'] ?? `/tmp/gateway-bench-upstream-${process.pid}`,
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hs,
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      FILES_BACKEND: 'sharefile',
      SHAREFILE_SUBDOMAIN: 'bench',
      SHAREFILE_CLIENT_ID: SHAREFILE_TEST_CLIENT.clientId,
      SHAREFILE_CLIENT_SECRET: SHAREFILE_TEST_CLIENT.clientSecret,
      SHAREFILE_REFRESH_TOKEN: SHAREFILE_TEST_CLIENT.refreshToken,
      SHAREFILE_API_URL: `${sf}/sf/v3`,
      SHAREFILE_OAUTH_URL: sf,
      FILES_FETCH_ALLOW_PRIVATE: 'true',
      RECORDS_BACKEND: 'podio',
      WORKSPACES_BACKEND: 'podio',
      PODIO_BASE_URL: po,
      PODIO_CLIENT_ID: podio.clientId,
      PODIO_CLIENT_SECRET: podio.clientSecret,
      PODIO_REFRESH_TOKEN: 'bench-refresh',
      SKIPTRACE_BACKEND: 'batchdata',
      BATCHDATA_BASE_URL: bd,
      BATCHDATA_API_TOKEN: batchdata.token,
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
    },
    logger: pino({ level: 'silent' }),
  });

  type Row = { tool: string; cold: Tally; warm?: Tally; status: number };
  const rows: Row[] = [];
  const pageRows: Row[] = [];
  let sink = rows;
  const readPaging = { pages: 0, calls: 0, bytes: 0, downloads: 0 };
  const call = async (tool: string, args: Json, repeat = true, label = tool): Promise<Json> => {
    const [group, name] = tool.split('_') as [string, string];
    const once = async () => {
      current = { calls: 0, bytes: 0 };
      const res = await gateway.http.request(`/v1/tools/${group}/${name}?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      const body = (await res.json()) as { success: boolean; data?: Json; error?: Json };
      return { status: res.status, body, tally: current };
    };
    const first = await once();
    if (first.status !== 200) console.error(`${tool} answered ${first.status}: ${JSON.stringify(first.body.error)}`);
    const second = repeat && first.status === 200 ? await once() : undefined;
    sink.push({ tool: label, cold: first.tally, ...(second ? { warm: second.tally } : {}), status: first.status });
    return (first.body.data ?? {}) as Json;
  };
  const first = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) {
      for (const x of v) {
        const f = first(x, key);
        if (f !== undefined) return f;
      }
      return undefined;
    }
    if (typeof v !== 'object' || v === null) return undefined;
    if (key in (v as Json)) return (v as Json)[key];
    for (const x of Object.values(v as Json)) {
      const f = first(x, key);
      if (f !== undefined) return f;
    }
    return undefined;
  };

  /** Page 1 (once, not reported), then the page its cursor names, twice: the second call is warm. */
  const nextPage = async (tool: string, args: Json, cursorKey: string, cursorParam = cursorKey, what = '') => {
    sink = pageRows;
    const page1 = await call(tool, args, false, `${tool} (page 1)`);
    pageRows.pop();
    const cursor = first(page1, cursorKey);
    if (cursor === undefined || cursor === null) console.error(`${tool}: page 1 named no next page`);
    else await call(tool, { ...args, [cursorParam]: cursor }, true, `${tool} (page 2${what})`);
    sink = rows;
  };

  const onPage = async (tool: string, args: Json, label: string) => {
    sink = pageRows;
    await call(tool, args, true, label);
    sink = rows;
  };

  // crm
  await call('crm_getProperties', { object_type: 'contacts' });
  const created = await call(
    'crm_createContact',
    { values: { email: 'bench.one@example.com', firstname: 'Bench', company: 'Bench Co' } },
    false,
  );
  const contactId = String(first(created, 'id'));
  await call('crm_getContact', { contact_id: contactId });
  await call('crm_updateContact', { contact_id: contactId, values: { lastname: 'Upstream' } });
  await call('crm_searchContacts', {
    filter_groups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Bench' }] }],
    limit: 10,
  });
  await call('crm_createContact', { values: { email: 'bench.two@example.com', firstname: 'Bench' } }, false);
  await nextPage(
    'crm_searchContacts',
    { filter_groups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Bench' }] }], limit: 1 },
    'after',
  );
  await call('crm_deleteContact', { contact_id: contactId }, false);

  // files
  const top = await call('files_getTopLevelFolders', {});
  void top;
  const folder = await call('files_createFolder', { parent_id: 'home', name: 'Bench folder' }, false);
  const folderId = String(first(folder, 'Id'));
  const other = await call('files_createFolder', { parent_id: 'home', name: 'Bench target' }, false);
  const otherId = String(first(other, 'Id'));
  const seeded = sharefile.items.addFile(folderId, 'bench.txt', new TextEncoder().encode('bench upstream\n'), {
    overwrite: false,
  });
  const fileId = seeded._tag === 'Right' ? seeded.right.item.Id : '';
  await call('files_getItem', { item_id: fileId });
  await call('files_listChildren', { folder_id: folderId });
  await onPage('files_listChildren', { folder_id: 'home', top: 1, skip: 1 }, 'files_listChildren (page 2)');
  await call('files_searchItems', { query: 'bench' });
  await call('files_updateItem', { item_id: fileId, description: 'measured' });
  await call('files_getDownloadUrl', { item_id: fileId });
  await call('files_getUploadUrl', { folder_id: folderId, file_name: 'upload.txt' });
  const writtenFile = await call(
    'files_writeFile',
    { folder_id: folderId, file_name: 'written.txt', content: 'written by the bench\n' },
    false,
  );
  await call('files_readFile', { item_id: String(first(writtenFile, 'Id')) });
  const lines = Array.from({ length: 240 }, (_, i) => `line ${String(i).padStart(3, '0')} of the long bench file`);
  const long = sharefile.items.addFile(folderId, 'long.txt', new TextEncoder().encode(lines.join('\n')), {
    overwrite: false,
  });
  const longId = long._tag === 'Right' ? long.right.item.Id : '';
  const downloads = () => sharefile.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/files/')).length;
  const downloadsBefore = downloads();
  const paged: Tally = { calls: 0, bytes: 0 };
  let offset: unknown = 0;
  let pages = 0;
  sink = pageRows;
  while (pages < 10 && typeof offset === 'number') {
    const page = await call('files_readFile', { item_id: longId, offset, max_chars: 800 }, false);
    const row = pageRows.pop();
    paged.calls += row?.cold.calls ?? 0;
    paged.bytes += row?.cold.bytes ?? 0;
    offset = first(page, 'next_offset');
    pages++;
  }
  sink = rows;
  Object.assign(readPaging, { pages, ...paged, downloads: downloads() - downloadsBefore });
  await call('files_copyItem', { item_id: fileId, target_folder_id: otherId, overwrite: true });
  const share = await call('files_createShare', { share_type: 'Send', items: [fileId] }, false);
  const shareId = String(first(share, 'Id'));
  await call('files_getShare', { share_id: shareId });
  await call('files_listShares', {});
  await call('files_updateShare', { share_id: shareId, title: 'Bench share' });
  await call('files_sendShareNotification', { share_id: shareId, recipients: ['reader@example.com'] });
  await call('files_deleteShare', { share_id: shareId }, false);
  await call('files_moveItem', { item_id: fileId, target_folder_id: otherId, overwrite: true }, false);
  await call('files_deleteItem', { item_id: fileId }, false);

  // records
  await call('records_listApps', {});
  const apps = await call('records_listApps', { workspace_id: 2001 }, false);
  void apps;
  const app = 3001;
  await call('records_getApp', { app_id: app });
  await call('records_getAppViews', { app_id: app });
  const list = await call('records_listRecords', { app_id: app, limit: 50 });
  const recordId = Number(first(list, 'record_id'));
  await call('records_listRecords', { view_id: 400101, app_id: app, limit: 50 });
  await nextPage('records_listRecords', { app_id: app, limit: 20 }, 'cursor');
  await nextPage('records_listRecords', { view_id: 400101, app_id: app, limit: 5 }, 'cursor', 'cursor', ' of a view');
  await call('records_filterRecords', {
    app_id: app,
    filters: [{ field_id: 'motivation', match_type: 'any', values: [{ value: 1 }] }],
    limit: 50,
  });
  await nextPage(
    'records_filterRecords',
    { app_id: app, filters: [{ field_id: 'motivation', match_type: 'any', values: [{ value: 1 }] }], limit: 5 },
    'cursor',
  );
  await call('records_getRecord', { record_id: recordId });
  await call('records_getRecordRevisions', { record_id: recordId });
  await call('records_getRelatedRecords', { app_id: app, record_ids: [recordId], related_app_id: 3002 });
  await call('records_aggregateRecords', { app_id: app, aggregations: [{ operation: 'count', field_id: 300101 }] });
  const newRecord = await call('records_createRecord', { app_id: app, fields: { name: 'Bench lead' } }, false);
  const newId = Number(first(newRecord, 'record_id'));
  await call('records_updateRecord', { record_id: newId, fields: { name: 'Bench lead, updated' } });
  await call('records_getRecordRevisionDelta', { record_id: newId, revision_from: 0, revision_to: 1 });
  await call(
    'records_batchCreateRecords',
    { app_id: app, inputs: [{ fields: { name: 'Batch A' } }, { fields: { name: 'Batch B' } }] },
    false,
  );
  await call('records_batchUpdateRecords', {
    app_id: app,
    updates: [{ record_id: newId, fields: { name: 'Batch updated' } }],
  });
  await call('records_findRelatableRecords', { field_id: 300111, text: 'a' });
  await call(
    'records_uploadFiles',
    { files: [{ content_base64: Buffer.from('bench').toString('base64'), name: 'bench.txt' }] },
    false,
  );
  const comment = await call('records_createRecordComment', { record_id: newId, value: 'Bench comment' }, false);
  const commentId = Number(first(comment, 'comment_id'));
  await call('records_getRecordComment', { comment_id: commentId });
  await call('records_listRecordComments', { record_id: newId });
  await call('records_createRecordComment', { record_id: newId, value: 'Second comment' }, false);
  await nextPage('records_listRecordComments', { record_id: newId, limit: 1 }, 'cursor');
  await call('records_deleteRecordComment', { comment_id: commentId }, false);
  await call('records_deleteRecord', { record_id: newId }, false);
  await call('records_restoreRecord', { record_id: newId }, false);

  // workspaces
  const orgs = await call('workspaces_getOrganizations', {});
  const orgId = Number(first(orgs, 'org_id'));
  const space = await call('workspaces_createSpace', { org_id: orgId, name: 'Bench space' }, false);
  const spaceId = Number(first(space, 'space_id'));
  await call('workspaces_getSpace', { space_id: spaceId });
  await call('workspaces_updateSpace', { space_id: spaceId, name: 'Bench space, renamed' });
  await call('workspaces_getSpaceMembers', { space_id: spaceId });
  await call(
    'workspaces_addMemberToSpace',
    { space_id: spaceId, role: 'regular', users: [5002], mails: ['bench.member@example.com'] },
    false,
  );
  await call('workspaces_updateSpaceMemberships', { space_id: spaceId, user_ids: [5002], role: 'light' }, false);
  await call('workspaces_endSpaceMemberships', { space_id: spaceId, user_ids: [5002] }, false);
  await call('workspaces_deleteSpace', { space_id: spaceId }, false);

  // skiptrace
  await call('skiptrace_skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });

  await gateway.close();
  for (const p of proxies) p.server.close();
  await Promise.all([hubspot.close(), sharefile.close(), podio.close(), batchdata.close()]);

  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, pages: pageRows, readPaging }, null, 2));
    return;
  }
  const kb = (b: number) => (b < 1024 ? `${b} B` : `${(b / 1024).toFixed(1)} KiB`);
  console.log('| tool | status | vendor calls (cold) | bytes (cold) | vendor calls (warm) | bytes (warm) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.tool} | ${r.status} | ${r.cold.calls} | ${kb(r.cold.bytes)} | ${r.warm ? r.warm.calls : '-'} | ${r.warm ? kb(r.warm.bytes) : '-'} |`,
    );
  console.log('\nNext pages (warm = the same page asked again):\n');
  console.log('| page | status | vendor calls (first) | vendor calls (warm) | bytes (warm) |');
  console.log('|---|---|---|---|---|');
  for (const r of pageRows)
    console.log(
      `| ${r.tool} | ${r.status} | ${r.cold.calls} | ${r.warm ? r.warm.calls : '-'} | ${r.warm ? kb(r.warm.bytes) : '-'} |`,
    );
  console.log(
    `| files_readFile, ${readPaging.pages} pages of one file | 200 | ${readPaging.calls} API calls, ${readPaging.downloads} download(s) | - | ${kb(readPaging.bytes)} |`,
  );
  const over = [...rows, ...pageRows].filter((r) => READS.test(r.tool) && r.warm !== undefined && r.warm.calls > 1);
  console.log(`\nRead tools above one vendor call when warm: ${over.length === 0 ? 'none' : ''}`);
  for (const r of over) console.log(`- ${r.tool}: ${r.warm?.calls}`);
};

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
