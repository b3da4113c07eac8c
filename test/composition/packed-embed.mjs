// The "Embedding the application layer" example of docs/http.md, run by CI in an empty project that
// installed the `npm pack` tarball (not this checkout): it proves the package carries what the embedding
// needs. Prints one line per check and exits 1 on any failure. CI copies it there and runs it with node.
import { createGateway, principal } from 'tool-gateway';

const checks = [];
const check = (name, ok, detail) => {
  checks.push(ok);
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}  packed package  ${name.padEnd(22)} ${detail}\n`);
};

// Where 'tool-gateway' resolved: the installed package's build, never TypeScript sources.
const entry = import.meta.resolve('tool-gateway');
check('resolves to', /\/node_modules\/tool-gateway\/dist\/composition\/library\.js$/.test(entry), entry);

// As docs/http.md shows it.
const gateway = createGateway({ env: { CRM_BACKEND: 'memory' } }); // or { config } from loadConfig()
const answer = await gateway.callTool(
  'crm_searchContacts',
  { query: 'harbor' },
  {
    principal: principal('billing-service', ['crm:read']),
    format: 'json', // 'text' (default) or 'json'
  },
);
// answer = { status: 200, body: { success: true, data: { total: 2, count: 2, results: [...] } } }
check(
  'callTool (json)',
  answer.status === 200 && answer.body.success === true && answer.body.data.total === 2 && answer.body.data.count === 2,
  JSON.stringify(answer).slice(0, 160),
);
const tools = gateway.listTools(); // the same listing as GET /v1/tools
check('listTools', Array.isArray(tools) && tools.some((t) => t.name === 'crm_getContact'), `${tools.length} tools`);
check('http', typeof gateway.http?.fetch === 'function', 'the Hono app is there to mount');

// A text answer too, and the permission check a principal gets.
const text = await gateway.callTool(
  'crm_getContact',
  { contact_id: 101 },
  { principal: principal('svc', ['crm:read']) },
);
check('callTool (text)', text.status === 200 && String(text.body.data).includes('Maria Alvarez'), `${text.status}`);
const denied = await gateway.callTool(
  'crm_deleteContact',
  { contact_id: '101' },
  { principal: principal('svc', ['crm:read']) },
);
check('permission', denied.status === 403 && denied.body.error?.code === 'FORBIDDEN', `${denied.status}`);

await gateway.close?.();
process.exit(checks.every(Boolean) ? 0 : 1);
