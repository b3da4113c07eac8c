// Tool search (issue 30): what discovery mode costs up front and how often it finds the right tool.
// - Up-front tokens: tools/list of /mcp?discovery=search, counted as bench/catalogue.ts counts (o200k_base,
//   js-tiktoken): what the model reads (name, description, input schema) and the list as it goes over the
//   wire. Goal: under 1,500.
// - Top-3 hit rate: each task phrasing of bench/discovery-tasks.json goes to gateway_findTools through the
//   official v2 MCP client (2026-07-28) on a real socket; a hit is an expected tool among the first three.
//   Goal: 95 % or more. Every miss is listed with what was found instead. bench/discovery-heldout.json, written
//   after the synonym table was tuned on the first set, says how it does on wording it was not tuned on;
//   bench/discovery-heldout-2.json (issue 41), written and committed before the tenant's names and the
//   question ranking were built, on the tenant's own nouns and questions. Goals there: top-3 95 %, top-1 80 %.
// - Calls per task: the walkthrough tasks of bench/discovery-walkthrough.json, search mode (a scripted agent
//   that knows only what find answers told it, bench/discovery-agent.ts) against full mode. Goal: 1.3x or less.
//
//   bench/discovery-heldout-3.json (issue 41, point 1), written and committed before the search was tuned
//   further with held-out-2 as the dev set: the unseen score of that round (78.8 % top-1, 93.9 % top-3), then
//   a dev set too. bench/discovery-heldout-4.json (issue 41, the next round), written blind by someone who
//   read neither the search code nor the earlier sets, committed (fcda8f3) before that round's tuning: the
//   unseen score of the third round (80.0 % top-1, 94.3 % top-3), then a dev set too.
//   bench/discovery-heldout-5.json, written blind the same way and committed (968a244) before the fourth
//   round: the unseen score of that round (70.0 % top-1, 85.7 % top-3: casual wording), then a dev set.
//   bench/discovery-heldout-6.json, written blind the same way (a third plain, a third office, a third casual)
//   and committed (3271900) before the fifth round: the unseen score of that round (71.4 % top-1, 87.1 % top-3),
//   then a dev set. bench/discovery-heldout-7.json, written blind the same way while the sixth round (the
//   general lexicon, application/runtime/lexicon.ts) was tuned, and committed (d2f0a8e) before that round's
//   commit (e45625e): the unseen score of that round (77.1 % top-1, 91.4 % top-3), then a dev set.
//   bench/discovery-heldout-8.json, written blind the same way while the seventh round (the form of a request:
//   where a verb stands, its particle and object, query-terms.ts) was tuned, and committed (59b97ff) before
//   that round's first commit (907658a): the unseen score of that round (81.4 % top-1, 92.9 % top-3), then a
//   dev set. bench/discovery-heldout-9.json, written blind the same way while the eighth round (aimed at the
//   second and third places: a verb nothing knows read by its preposition, the object's tools, names written
//   together) was tuned, and committed (3b48c99) before that round's first commit (bc4bb4d); never read by it:
//   the unseen score now. `--dev` leaves it out.
//
//   npm run bench:discovery
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getEncoding } from 'js-tiktoken';
import pino from 'pino';
import { createGateway } from '../composition/gateway.js';
import { walkthrough, type FindAnswer, type WalkthroughTask } from './discovery-agent.js';

const TOKEN_GOAL = 1_500;
const HIT_GOAL = 0.95;
const FIRST_GOAL = 0.8;
const CALLS_GOAL = 1.3;
const token = 'discovery-bench-token-0123';
const encoding = getEncoding('o200k_base');
const tokens = (value: unknown) => encoding.encode(JSON.stringify(value)).length;

interface Task {
  readonly task: string;
  readonly expect: readonly string[];
}
const taskSet = (file: string) =>
  (JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { tasks: Task[] }).tasks;

const gateway = createGateway({ env: { GATEWAY_DEMO_TOKEN: token }, logger: pino({ level: 'silent' }) });
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: gateway.http.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const connect = async (query: string) => {
  const client = new Client(
    { name: 'discovery-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
};

try {
  const catalogue = await connect('');
  const full = await catalogue.listTools(undefined, { cacheMode: 'bypass' });
  const client = await connect('?discovery=search');
  const list = await client.listTools(undefined, { cacheMode: 'bypass' });
  const read = (tools: typeof list.tools) =>
    tokens({ tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) });
  const wire = (tools: typeof list.tools) => tokens({ tools });
  const upFront = wire(list.tools);

  console.log(`Discovery mode, /mcp?discovery=search: ${list.tools.map((t) => t.name).join(', ')}`);
  console.log(`| tools/list | tools | model reads (tokens) | on the wire (tokens) |\n|---|---|---|---|`);
  console.log(`| whole catalogue | ${full.tools.length} | ${read(full.tools)} | ${wire(full.tools)} |`);
  console.log(`| discovery=search | ${list.tools.length} | ${read(list.tools)} | ${upFront} |`);
  console.log(`up-front tokens: ${upFront} (goal under ${TOKEN_GOAL}: ${upFront < TOKEN_GOAL ? 'met' : 'NOT met'})\n`);

  const measure = async (file: string, goal?: number, firstGoal?: number) => {
    const tasks = taskSet(file);
    let hits = 0;
    let first = 0;
    const misses: string[] = [];
    const second: string[] = [];
    for (const { task, expect } of tasks) {
      const result = (await client.callTool({ name: 'gateway_findTools', arguments: { query: task, limit: 3 } })) as {
        structuredContent?: { tools: { name: string }[] };
      };
      const found = (result.structuredContent?.tools ?? []).map((t) => t.name);
      const rank = found.findIndex((n) => expect.includes(n));
      if (rank >= 0) hits++;
      if (rank === 0) first++;
      if (rank > 0) second.push(`- "${task}": ${expect.join(' or ')} is number ${rank + 1} after ${found[0]}`);
      if (rank < 0) misses.push(`- "${task}": expected ${expect.join(' or ')}; found ${found.join(', ') || 'nothing'}`);
    }
    const pct = (n: number) => `${((100 * n) / tasks.length).toFixed(1)} %`;
    const verdict =
      goal === undefined ? '' : `; goal ${100 * goal} %: ${hits / tasks.length >= goal ? 'met' : 'NOT met'}`;
    console.log(`${file.slice(2)}: ${tasks.length} task phrasings, gateway_findTools with limit 3`);
    const firstVerdict =
      firstGoal === undefined
        ? ''
        : `; goal ${100 * firstGoal} %: ${first / tasks.length >= firstGoal ? 'met' : 'NOT met'}`;
    console.log(`  top-1: ${first}/${tasks.length} (${pct(first)}${firstVerdict})`);
    console.log(`  top-3: ${hits}/${tasks.length} (${pct(hits)}${verdict})`);
    console.log(misses.length ? `  misses:\n${misses.map((m) => `  ${m}`).join('\n')}` : '  misses: none');
    if (second.length) console.log(`  in the top 3, not first:\n${second.map((m) => `  ${m}`).join('\n')}`);
  };
  await measure('./discovery-tasks.json', HIT_GOAL);
  // written after the search was tuned on the set above: how it does on wording it was not tuned on
  await measure('./discovery-heldout.json');
  // issue 41: written and committed before the tenant's names and the question ranking were built
  await measure('./discovery-heldout-2.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, point 1: written and committed before the second tuning round, scored once; a dev set since
  await measure('./discovery-heldout-3.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the third round: written blind and committed before it, scored once; a dev set since
  await measure('./discovery-heldout-4.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the fourth round: written blind and committed before it, scored once; a dev set since
  await measure('./discovery-heldout-5.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the fifth round: written blind and committed before it, scored once; a dev set since
  await measure('./discovery-heldout-6.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the sixth round: written blind while it was tuned, scored once; a dev set since
  await measure('./discovery-heldout-7.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the seventh round: written blind while it was tuned, scored once; a dev set since
  await measure('./discovery-heldout-8.json', HIT_GOAL, FIRST_GOAL);
  // issue 41, the eighth round: written blind while it was tuned; `--dev` leaves it out, so that it is scored
  // once, not tuned on
  if (!process.argv.includes('--dev')) await measure('./discovery-heldout-9.json', HIT_GOAL, FIRST_GOAL);

  const walk = JSON.parse(readFileSync(new URL('./discovery-walkthrough.json', import.meta.url), 'utf8')) as {
    tasks: WalkthroughTask[];
  };
  const answerTokens: number[] = [];
  const calls = await walkthrough(walk.tasks, async (query, limit) => {
    const args = limit === undefined ? { query } : { query, limit };
    const result = (await client.callTool({ name: 'gateway_findTools', arguments: args })) as {
      structuredContent?: FindAnswer;
      content?: Array<{ text?: string }>;
    };
    answerTokens.push(encoding.encode(result.content?.[0]?.text ?? '').length);
    return result.structuredContent ?? { tools: [] };
  });
  console.log(`\nWalkthrough, ${calls.length} tasks: calls in full mode / search mode (finds, describes)`);
  for (const c of calls) {
    const missed = [...(c.misses.length ? [`missed ${c.misses.join(', ')}`] : []), ...c.notes].join('; ');
    console.log(`- "${c.ask}": ${c.full} / ${c.search} (${c.finds}, ${c.describes})${missed ? `: ${missed}` : ''}`);
  }
  const sum = (f: (c: (typeof calls)[number]) => number) => calls.reduce((s, c) => s + f(c), 0);
  const meanTokens = answerTokens.reduce((s, n) => s + n, 0) / Math.max(1, answerTokens.length);
  console.log(`find answers' text: ${Math.round(meanTokens)} tokens on average (${answerTokens.length} finds)`);
  const ratio = sum((c) => c.search) / sum((c) => c.full);
  console.log(
    `total: full ${sum((c) => c.full)}, search ${sum((c) => c.search)} (${sum((c) => c.finds)} finds, ` +
      `${sum((c) => c.describes)} describes): ${ratio.toFixed(2)}x (goal ${CALLS_GOAL}x or less: ${ratio <= CALLS_GOAL ? 'met' : 'NOT met'})`,
  );
  await Promise.all([catalogue.close(), client.close()]);
} finally {
  await new Promise((resolve) => server.close(resolve));
  await gateway.close();
}
