import {
  Client,
  ProtocolError,
  SdkError,
  specTypeSchemas,
  StreamableHTTPClientTransport,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, READER_TOKEN } from '../../../support/gateway.js';
import { mcpHarness } from '../mcp-harness.js';

// MCP Tasks through the official SDK v2 client (@modelcontextprotocol/client), issue 40. The v2 SDK has no
// task runtime; its public `client.request(request, resultSchema)` sends any request with the caller's result
// schema, and the SDK exports the 2025-11-25 task schemas (`specTypeSchemas.CreateTaskResult`, ...).
// - 2025-11-25 (versionNegotiation "legacy"): create, poll, progress, cancel, tasks/result and the result's
//   pages all work through those public ways.
// - 2026-07-28: the client's 2026 wire codec refuses any `resultType` but "complete" and "input_required"
//   before a caller's schema is consulted (SdkError UNSUPPORTED_RESULT_TYPE), so no public way of this client
//   takes a task from tools/call: proven below. What works: the gateway answers such a client inline when the
//   work is small (SEP-2663 lets the server decide), and tasks/get and tasks/cancel (the SDK lets a caller
//   send those two with its own schema) on a task started elsewhere by the same caller (here over REST).

const h = mcpHarness();
beforeAll(h.start);
afterAll(h.stop);

const TASKS = 'io.modelcontextprotocol/tasks';
const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `V2 lead ${i}` } }));
/** A batch long enough to be cancelled under way (in memory mode, about a millisecond a record). */
const BIG = 20_000;

const v2 = async (
  mode: 'legacy' | { pin: '2026-07-28' },
  declareTasks = false,
  token = DEMO_TOKEN,
): Promise<Client> => {
  const client = new Client(
    { name: 'tasks-v2', version: '1.0.0' },
    { versionNegotiation: { mode }, ...(declareTasks ? { capabilities: { extensions: { [TASKS]: {} } } } : {}) },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.base()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  await client.listTools(); // as a real client does
  return client;
};

const until = async <T>(poll: () => Promise<T>, done: (t: T) => boolean): Promise<T> => {
  for (let i = 0; i < 400; i++) {
    const t = await poll();
    if (done(t)) return t;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the task did not get there: ${JSON.stringify(await poll())}`);
};

/** Pages records_getBatchResults from offset 0 until every row is seen; each index once. */
const pagedIndexes = async (client: Client, batchId: string, total: number): Promise<number[]> => {
  const seen: number[] = [];
  for (let page = 0; seen.length < total && page < 50; page++) {
    const r = await client.callTool({
      name: 'records_getBatchResults',
      arguments: { batch_id: batchId, offset: seen.length },
    });
    const items = (r.structuredContent as { items: { index: number }[] }).items;
    if (items.length === 0) break;
    seen.push(...items.map((i) => i.index));
  }
  return seen;
};

describe('MCP tasks through the official v2 client, 2025-11-25', () => {
  let client: Client;
  beforeAll(async () => {
    client = await v2('legacy');
  });
  afterAll(() => client.close());

  const create = (n: number) =>
    client.request(
      {
        method: 'tools/call',
        params: {
          name: 'records_batchCreateRecords',
          arguments: { app_id: 3001, inputs: inputs(n) },
          task: { ttl: 60_000 },
        },
      },
      specTypeSchemas.CreateTaskResult,
    );
  const get = (taskId: string) =>
    client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult);
  const result = (taskId: string) =>
    client.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.GetTaskPayloadResult);

  it('sees the task support in the listing and the server capabilities', async () => {
    expect(client.getProtocolEra()).toBe('legacy');
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'records_batchCreateRecords')?.execution).toEqual({ taskSupport: 'optional' });
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ cancel: {}, requests: { tools: { call: {} } } });
  });

  it('creates, polls to completed with its progress, takes the result and pages it', async () => {
    const created = await create(120);
    const { taskId } = created.task;
    expect(created.task.status).toBe('working');
    const done = await until(
      () => get(taskId),
      (t) => t.status !== 'working',
    );
    expect(done.status).toBe('completed');
    expect(done.statusMessage).toMatch(/120 of 120/);
    const answer = (await result(taskId)) as { structuredContent?: { batch_id: string; total: number } };
    expect(answer.structuredContent).toMatchObject({ total: 120, successful: 120, failed: 0 });
    const seen = await pagedIndexes(client, answer.structuredContent!.batch_id, 120);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    const listed = await client.request({ method: 'tasks/list', params: {} }, specTypeSchemas.ListTasksResult);
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it('tasks/result waits for a task still working, and cancel leaves a correct count', async () => {
    const { taskId } = (await create(BIG)).task;
    const waiting = result(taskId); // blocks until the task ends
    const cancelled = await client.request(
      { method: 'tasks/cancel', params: { taskId } },
      specTypeSchemas.CancelTaskResult,
    );
    expect(['working', 'cancelled']).toContain(cancelled.status);
    const answer = (await waiting) as {
      isError?: boolean;
      structuredContent?: { successful: number };
      content: { text: string }[];
    };
    expect((await get(taskId)).status).toBe('cancelled');
    if (answer.isError) {
      expect(answer.content[0]!.text).toMatch(/cancelled before it started/);
      return;
    }
    const written = answer.structuredContent!.successful;
    expect(written).toBeLessThan(BIG);
    expect(written % 50).toBe(0); // whole chunks
    expect(answer.content[0]!.text).toContain(`cancelled after ${written} of ${BIG}`);
  }, 60_000);
});

/** A 2026-07-28 Task as tasks/get answers it (the SDK exports no 2026 task schema: this one is the test's). */
interface ModernTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  readonly result?: { structuredContent?: Record<string, unknown>; content: { text?: string }[]; isError?: boolean };
}
const ModernTaskSchema: StandardSchemaV1<unknown, ModernTask> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (v) => {
      const t = v as Partial<ModernTask> | null;
      return typeof t?.taskId === 'string' && typeof t.status === 'string' && 'ttlMs' in t
        ? { value: t as ModernTask }
        : { issues: [{ message: `not a 2026-07-28 task: ${JSON.stringify(v)}` }] };
    },
  },
};
const EmptySchema: StandardSchemaV1<unknown, object> = {
  '~standard': { version: 1, vendor: 'test', validate: (v) => ({ value: v as object }) },
};

/** A job started over REST by the same caller (the demo principal): its id is the task id over MCP. */
const restJob = async (n: number): Promise<string> => {
  const res = await fetch(`${h.base()}/v1/tools/records/batchCreateRecords`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ app_id: 3001, inputs: inputs(n) }),
  });
  expect(res.status).toBe(202);
  return res.headers.get('location')!.split('/').pop()!;
};

describe('MCP tasks through the official v2 client, 2026-07-28', () => {
  it('refuses a task answer in every public way it has: callTool and request with a schema', async () => {
    const client = await v2({ pin: '2026-07-28' }, true);
    expect(client.getProtocolEra()).toBe('modern');
    const params = { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(60) } };
    const refused = (e: unknown) => e instanceof SdkError && e.code === 'UNSUPPORTED_RESULT_TYPE';
    const viaCallTool = await client.callTool(params).catch((e: unknown) => e);
    expect(refused(viaCallTool), String(viaCallTool)).toBe(true);
    const viaRequest = await client
      .request({ method: 'tools/call', params }, specTypeSchemas.CreateTaskResult)
      .catch((e: unknown) => e);
    expect(refused(viaRequest), String(viaRequest)).toBe(true);
    expect((viaRequest as SdkError).message).toContain("Unsupported result type 'task'");
    await client.close();
  });

  it('gets the result itself for a batch of one chunk, with or without the extension (the server decides)', async () => {
    for (const declared of [true, false]) {
      const client = await v2({ pin: '2026-07-28' }, declared);
      const r = await client.callTool({
        name: 'records_batchCreateRecords',
        arguments: { app_id: 3001, inputs: inputs(50) },
      });
      expect(r.structuredContent).toMatchObject({ total: 50, successful: 50 });
      await client.close();
    }
  });

  it('without the extension: a batch that needs a task is refused with -32021 naming it, a middle one runs inline', async () => {
    const client = await v2({ pin: '2026-07-28' });
    const big = await client
      .callTool({ name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(501) } })
      .catch((e: unknown) => e);
    expect(big).toBeInstanceOf(ProtocolError);
    expect((big as ProtocolError).code).toBe(-32021);
    expect((big as ProtocolError).data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    const middle = await client.callTool({
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(120) },
    });
    expect(middle.structuredContent).toMatchObject({ total: 120, successful: 120 });
    await client.close();
  });

  it('a caller who may not call the tool is told that, not that the extension is missing', async () => {
    const client = await v2({ pin: '2026-07-28' }, false, READER_TOKEN); // crm:read only
    const answer = await client
      .callTool({ name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(501) } })
      .catch((e: unknown) => e);
    expect(answer).not.toBeInstanceOf(ProtocolError);
    expect(answer).toMatchObject({ isError: true });
    expect(JSON.stringify(answer)).toMatch(/FORBIDDEN|permission/);
    await client.close();
  });

  it('polls, sees progress, cancels and reads the result of a task through tasks/get and tasks/cancel', async () => {
    const client = await v2({ pin: '2026-07-28' }, true);
    const get = (taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, ModernTaskSchema);
    const small = await restJob(120);
    const done = await until(
      () => get(small),
      (t) => t.status !== 'working',
    );
    expect(done).toMatchObject({ status: 'completed', pollIntervalMs: 2000 });
    expect(done.statusMessage).toMatch(/120 of 120/);
    expect(done.result?.structuredContent).toMatchObject({ total: 120, successful: 120 });
    const batchId = done.result!.structuredContent!['batch_id'] as string;
    expect((await pagedIndexes(client, batchId, 120)).length).toBe(120);

    const big = await restJob(BIG);
    const ack = await client.request({ method: 'tasks/cancel', params: { taskId: big } }, EmptySchema);
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual([]); // an empty acknowledgement
    const ended = await until(
      () => get(big),
      (t) => t.status !== 'working',
    );
    expect(ended.status).toBe('cancelled');
    expect(ended.result).toBeUndefined(); // a cancelled task carries no result on 2026-07-28
    // an unknown task id is an error (SEP-2663: -32602)
    const unknown = await get('j' + '0'.repeat(32)).catch((e: unknown) => e);
    expect((unknown as ProtocolError).code).toBe(-32602);
    await client.close();
  }, 60_000);

  it('tasks/get from a request that does not declare the extension is refused with -32021', async () => {
    const client = await v2({ pin: '2026-07-28' });
    const taskId = await restJob(10);
    const refused = await client
      .request({ method: 'tasks/get', params: { taskId } }, ModernTaskSchema)
      .catch((e: unknown) => e);
    expect((refused as ProtocolError).code).toBe(-32021);
    await client.close();
  });
});
