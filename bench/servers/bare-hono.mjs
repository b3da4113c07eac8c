// The reference: a bare Hono route on @hono/node-server answering the recorded bytes.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = process.env.BENCH_BODY ?? '{}';
const app = new Hono();
app.post('/v1/tools/crm/getContact', (c) => c.body(body, 200, { 'content-type': 'application/json; charset=utf-8' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) =>
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`),
);
