// A tiny separate Node program that embeds the gateway as a library, the way another service would.
import { createGateway, principal } from 'tool-gateway';

const gateway = createGateway({ env: { LOG_LEVEL: 'silent', GATEWAY_DEMO_TOKEN: 'embed-demo-token' } });
const svc = principal('embedding-service', ['crm:read']);
const text = await gateway.callTool('crm_getContact', { contact_id: 101 }, { principal: svc });
const json = await gateway.callTool('crm_searchContacts', { query: 'harbor' }, { principal: svc, format: 'json' });
const denied = await gateway.callTool('crm_deleteContact', { contact_id: '101' }, { principal: svc });
const http = await gateway.http.request('/v1/tools/crm/getContact', {
  method: 'POST',
  headers: { authorization: 'Bearer embed-demo-token', 'content-type': 'application/json' },
  body: JSON.stringify({ contact_id: '101' }),
});
process.stdout.write(
  JSON.stringify({
    text,
    json,
    denied,
    http: { status: http.status, body: await http.json() },
    tools: gateway.listTools().length,
  }),
);
