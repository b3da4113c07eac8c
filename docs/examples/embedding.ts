// Embedding the application layer in another Node service (docs/http.md "Embedding the application layer"):
// build the gateway from configuration, call tools by name with a principal, and get the HTTP surface's
// status and envelope without HTTP. CI type-checks this file (docs/examples/tsconfig.json) and runs it
// (`npx tsx docs/examples/embedding.ts`); it exits non-zero when an answer is not the one shown in the docs.
// A service that installed the package imports from 'tool-gateway' instead of the library's source path.
import { createGateway, principal } from '../../composition/library.js';

const gateway = createGateway({ env: { CRM_BACKEND: 'memory', LOG_LEVEL: 'silent' } });
const billing = principal('billing-service', ['crm:read']);

const found = await gateway.callTool('crm_searchContacts', { query: 'harbor' }, { principal: billing, format: 'json' });
// found = { status: 200, body: { success: true, data: { total: 2, count: 2, results: [...] } } }
const denied = await gateway.callTool('crm_deleteContact', { contact_id: '101' }, { principal: billing });
const tools = gateway.listTools(); // the same listing as GET /v1/tools

const data = (found.body as { readonly data?: { readonly total?: number } }).data;
const checks: [string, boolean][] = [
  ['the search answers 200', found.status === 200],
  ['the search finds the two Harbor contacts', data?.total === 2],
  ['a delete without crm:write is refused with 403', denied.status === 403],
  ['the listing names crm_searchContacts', tools.some((t) => t.name === 'crm_searchContacts')],
];
await gateway.close();
for (const [what, ok] of checks) process.stdout.write(`${ok ? 'ok' : 'FAILED'}  ${what}\n`);
if (checks.some(([, ok]) => !ok)) process.exit(1);
