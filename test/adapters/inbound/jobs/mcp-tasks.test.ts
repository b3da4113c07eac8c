import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../../../support/gateway.js';
import { MODERN_META, mcpHarness, rpcBody } from '../mcp-harness.js';

// MCP Tasks over long jobs (issue 40), in both revisions, in the embedded default (memory-mode tools, job
// rows in the embedded SQLite file): 2025-11-25 through the official v1 client's task API (a tools/call with
// `task`, tasks/get, tasks/result, tasks/list, tasks/cancel, notifications/tasks/status); 2026-07-28's Tasks
// extension (SEP-2663) as raw requests, since the official v2 client refuses a `resultType: "task"`
// (mcp-tasks-v2.test.ts shows it, and runs what it can).

const h = mcpHarness();
beforeAll(h.start);
afterAll(h.stop);

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `Task lead ${i}` } }));
const TASKS = 'io.modelcontextprotocol/tasks';
/** A batch long enough to be cancelled under way (in memory mode, about a millisecond a record). */
const BIG = 20_000;

const v1 = async (): Promise<V1Client> => {
  const client = new V1Client({ name: 'tasks-v1', version: '1.0.0' });
  await client.connect(
    new V1Transport(new URL(`${h.base()}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${DEMO_TOKEN}` } },
    }),
  );
  await client.listTools(); // as a real client does, whichever test runs first
  return client;
};

/** A 2026-07-28 request; `tasks` declares the extension in the request's capabilities. */
const modern = async (method: string, params: Record<string, unknown>, tasks = true) =>
  rpcBody(
    await h.rpc(
      {
        jsonrpc: '2.0',
        id: 9,
        method,
        params: {
          ...params,
          _meta: {
            ...MODERN_META,
            'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS]: {} } } : {},
          },
        },
      },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
        ...(typeof params['taskId'] === 'string' ? { 'mcp-name': params['taskId'] } : {}),
      },
    ),
  );

const until = async <T>(poll: () => Promise<T>, done: (t: T) => boolean): Promise<T> => {
  for (let i = 0; i < 400; i++) {
    const t = await poll();
    if (done(t)) return t;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the task did not get there: ${JSON.stringify(await poll())}`);
};

describe('MCP tasks, 2025-11-25 (official v1 client)', () => {
  let client: V1Client;
  beforeAll(async () => {
    client = await v1();
  });
  afterAll(() => client.close());

  it('lists the job tools with execution.taskSupport and the server with the tasks capability', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'records_batchCreateRecords')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'records_getRecord')?.execution).toBeUndefined();
    expect(client.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
  });

  it('runs a batch as a task: created, polled to completed, its result and the list', async () => {
    const created = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'records_batchCreateRecords',
          arguments: { app_id: 3001, inputs: inputs(30) },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect(taskId).toMatch(/^j[0-9a-f]{32}$/);
    expect(created.task.status).toBe('working');
    const task = await until(
      () => client.experimental.tasks.getTask(taskId),
      (t) => t.status !== 'working',
    );
    expect(task.status).toBe('completed');
    expect(task.statusMessage).toMatch(/30 of 30/);
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ total: 30, successful: 30, failed: 0 });
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    // an ended task cannot be cancelled
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already ended/);
  });

  it("a call without a task gets today's answer", async () => {
    const result = await client.callTool({
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(2) },
    });
    expect(result.structuredContent).toMatchObject({ total: 2, successful: 2 });
  });

  it('cancels a running task: it ends cancelled, and its result says exactly what was written', async () => {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(BIG) }, task: {} },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const cancelling = await client.experimental.tasks.cancelTask(taskId);
    // it stops after the chunk in flight (or at once, if it had not started)
    expect(['working', 'cancelled']).toContain(cancelling.status);
    const ended = await until(
      () => client.experimental.tasks.getTask(taskId),
      (t) => t.status !== 'working',
    );
    expect(ended.status).toBe('cancelled');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    if (result.isError) {
      expect((result.content[0] as { text: string }).text).toMatch(/cancelled before it started/);
      return;
    }
    const counts = result.structuredContent as { total: number; successful: number };
    expect(counts.successful).toBeLessThan(BIG);
    expect(counts.successful % 50).toBe(0); // whole chunks
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(`cancelled after ${counts.successful} of ${BIG}`);
  }, 60_000);

  it('tasks/result blocks until the task ends and sends notifications/tasks/status on the way', async () => {
    const seen: Task[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      seen.push(n.params);
    });
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(BIG) }, task: {} },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const waiting = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    // the first notification: the task's progress changed while tasks/result waited (it looks every second)
    await until(
      async () => seen.filter((t) => t.taskId === taskId).length,
      (n) => n > 0,
    );
    expect(seen[0]).toMatchObject({ taskId, status: 'working' });
    await client.experimental.tasks.cancelTask(taskId);
    const result = await waiting;
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    const mine = seen.filter((t) => t.taskId === taskId);
    expect(mine.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(mine.at(-1)).toMatchObject({ taskId, status: 'cancelled' });
    expect(mine.at(-1)?.statusMessage).toMatch(/cancelled/);
  }, 60_000);

  it("holds at most 4 tasks/result waits of one caller at once: a fifth takes the oldest's place, which is told so", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(BIG) }, task: {} },
        },
        CreateTaskResultSchema,
      );
      ids.push(created.task.taskId);
    }
    // five waits at once: four are held, the first to arrive is ended by the fifth (which depends on their order)
    let refusedOne: (e: unknown) => void = () => undefined;
    const firstRefusal = new Promise<unknown>((resolve) => (refusedOne = resolve));
    const attempts = ids.map((id) =>
      client.experimental.tasks.getTaskResult(id, CallToolResultSchema).then(
        (result) => ({ id, result }),
        (error: unknown) => (refusedOne(error), { id, error }),
      ),
    );
    const refused = await firstRefusal;
    expect(String(refused)).toMatch(/took the place of this one \(a caller has at most 4 waiting at once/);
    for (const id of ids) await client.experimental.tasks.cancelTask(id).catch(() => undefined);
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => 'error' in o)).toHaveLength(1);
    for (const o of outcomes)
      if ('result' in o) expect(o.result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: o.id });
  }, 60_000);

  it('a client that gives up on its waits and asks again is not locked out', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(BIG) }, task: {} },
        },
        CreateTaskResultSchema,
      );
      ids.push(created.task.taskId);
    }
    // four waits the client abandons: the v1 client's request timeout ends a request on its side only (its
    // stream stays open), so the server still holds them
    const given = await Promise.all(
      ids.slice(0, 4).map((id) =>
        client.experimental.tasks.getTaskResult(id, CallToolResultSchema, { timeout: 1_000 }).then(
          () => 'answered',
          (e: unknown) => String(e),
        ),
      ),
    );
    for (const g of given) expect(g).toMatch(/timed out/);
    // a fifth is taken (it waits until this client gives up on it too), not refused
    const fifth = await client.experimental.tasks.getTaskResult(ids[4]!, CallToolResultSchema, { timeout: 1_000 }).then(
      () => 'answered',
      (e: unknown) => String(e),
    );
    expect(fifth).toMatch(/timed out/);
    for (const id of ids) await client.experimental.tasks.cancelTask(id).catch(() => undefined);
  }, 60_000);

  it('an unknown task id is an error', async () => {
    await expect(client.experimental.tasks.getTask('j' + '0'.repeat(32))).rejects.toThrow(/No task/);
  });
});

describe('MCP tasks, 2026-07-28 (Tasks extension, SEP-2663)', () => {
  it('a client that declares the extension gets resultType task for a batch above one chunk, and tasks/get carries the result', async () => {
    const created = await modern('tools/call', {
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(120) },
    });
    expect(created.result, JSON.stringify(created)).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = created.result;
    expect(created.result.ttlMs).toBeGreaterThan(0);
    expect(created.result.pollIntervalMs).toBeGreaterThan(0);
    const done = await until(
      () => modern('tasks/get', { taskId }),
      (r) => r.result?.status !== 'working',
    );
    expect(done.result).toMatchObject({ resultType: 'complete', status: 'completed', taskId });
    expect(done.result.result.structuredContent).toMatchObject({ total: 120, successful: 120 });
    // tasks/cancel of an ended task is an acknowledgement; tasks/list is not part of the extension
    expect((await modern('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await modern('tasks/list', {})).error).toBeDefined();
    // an unknown task: tasks/get must, tasks/cancel should, answer -32602
    expect((await modern('tasks/cancel', { taskId: 'j' + '0'.repeat(32) })).error?.code).toBe(-32602);
  });

  it('the server decides: a batch of one chunk is answered inline even to a client with the extension', async () => {
    const r = await modern('tools/call', {
      name: 'records_batchCreateRecords',
      arguments: { app_id: 3001, inputs: inputs(50) },
    });
    expect(r.result, JSON.stringify(r)).toMatchObject({ resultType: 'complete', structuredContent: { total: 50 } });
  });

  it('a client that does not declare the extension gets the result itself', async () => {
    const r = await modern(
      'tools/call',
      { name: 'records_batchCreateRecords', arguments: { app_id: 3001, inputs: inputs(2) } },
      false,
    );
    expect(r.result, JSON.stringify(r)).toMatchObject({ resultType: 'complete', structuredContent: { total: 2 } });
  });
});
