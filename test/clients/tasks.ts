// The matrix's task run (issue 40): the official SDK clients run a batch as an MCP task against the built
// server, as a host would: list the tools and see `execution.taskSupport` on records_batchCreateRecords,
// create the task, poll it to its end watching the progress ("n of N" in statusMessage), take its result and
// page the rest through records_getBatchResults, then create a large one and cancel it, which must leave a
// count of whole chunks that the result's text repeats. One line per client and step.
//
// The clients, through their public APIs and their own schemas only:
// - v1 (@modelcontextprotocol/sdk), 2025-11-25: `client.request(..., CreateTaskResultSchema)` and
//   `client.experimental.tasks` (getTask, getTaskResult, cancelTask);
// - v2 (@modelcontextprotocol/client) negotiated to 2025-11-25: `client.request(request, schema)` with the
//   SDK's exported `specTypeSchemas.CreateTaskResult`, `GetTaskResult`, `GetTaskPayloadResult`, `CancelTaskResult`;
// - v2 on 2026-07-28 with the Tasks extension declared: its wire codec refuses `resultType: "task"` in every
//   public way (SdkError UNSUPPORTED_RESULT_TYPE), so the create step records that refusal (INFO) and fails if
//   the client behaves otherwise (then clients.md is out of date); the other steps run on a task the same
//   caller started over REST (`Prefer: respond-async`), through tasks/get and tasks/cancel, which the v2 SDK
//   lets a caller send with its own result schema.

import {
  Client as V2Client,
  specTypeSchemas,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { line, STEP_TIMEOUT_MS, withTimeout } from './report.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const TOOL = 'records_batchCreateRecords';
/** The batch run to its end, and the one cancelled under way (in memory mode about a millisecond a record). */
const SMALL = 120;
const BIG = 20_000;

/** What a task's answers come to, whichever client and revision. */
interface TaskView {
  readonly status: string;
  readonly statusMessage?: string;
}
interface ToolAnswer {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content: readonly { readonly type: string; readonly text?: string }[];
}

export interface TaskSession {
  /** Served on 2026-07-28, whose tools have no `execution` member (the SDK server drops it: SEP-2663 has the server decide per call). */
  readonly modern?: boolean;
  /** The execution member records_batchCreateRecords is listed with. */
  listed(): Promise<unknown>;
  /** Creates a task for a batch of `n` inputs; its id. */
  create(n: number): Promise<string>;
  get(taskId: string): Promise<TaskView>;
  /** The task's tool result, once it has ended. */
  result(taskId: string): Promise<ToolAnswer>;
  cancel(taskId: string): Promise<void>;
  /** records_getBatchResults from `offset`: the rows' indexes. */
  page(batchId: string, offset: number): Promise<number[]>;
  close(): Promise<void>;
}

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: { name: `Matrix task lead ${i}` } }));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const textOf = (a: ToolAnswer) => a.content.map((b) => b.text ?? '').join('\n');
const indexesOf = (r: object) =>
  ((r as { structuredContent?: { items?: { index: number }[] } }).structuredContent?.items ?? []).map((i) => i.index);

const callArgs = (n: number) => ({ name: TOOL, arguments: { app_id: 3001, inputs: inputs(n) } });

export const v1Tasks = (url: string, token: string) => async (): Promise<TaskSession> => {
  const client = new V1Client({ name: 'matrix-tasks-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    listed: async () => (await client.listTools()).tools.find((t) => t.name === TOOL)?.execution,
    create: async (n) =>
      (
        await client.request(
          { method: 'tools/call', params: { ...callArgs(n), task: { ttl: 600_000 } } },
          CreateTaskResultSchema,
        )
      ).task.taskId,
    get: (taskId) => client.experimental.tasks.getTask(taskId),
    result: (taskId) => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
    cancel: async (taskId) => void (await client.experimental.tasks.cancelTask(taskId)),
    page: async (batchId, offset) =>
      indexesOf(await client.callTool({ name: 'records_getBatchResults', arguments: { batch_id: batchId, offset } })),
    close: () => client.close(),
  };
};

export const v2LegacyTasks = (url: string, token: string) => async (): Promise<TaskSession> => {
  const client = new V2Client(
    { name: 'matrix-tasks-v2-legacy', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return {
    listed: async () => (await client.listTools()).tools.find((t) => t.name === TOOL)?.execution,
    create: async (n) =>
      (
        await client.request(
          { method: 'tools/call', params: { ...callArgs(n), task: { ttl: 600_000 } } },
          specTypeSchemas.CreateTaskResult,
        )
      ).task.taskId,
    get: (taskId) => client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult),
    result: async (taskId) =>
      (await client.request(
        { method: 'tasks/result', params: { taskId } },
        specTypeSchemas.GetTaskPayloadResult,
      )) as unknown as ToolAnswer,
    cancel: async (taskId) =>
      void (await client.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult)),
    page: async (batchId, offset) =>
      indexesOf(await client.callTool({ name: 'records_getBatchResults', arguments: { batch_id: batchId, offset } })),
    close: () => client.close(),
  };
};

/** A 2026-07-28 task as tasks/get answers it: the SDK exports no schema for it, so this one is the matrix's. */
type ModernTask = TaskView & { readonly taskId: string; readonly result?: ToolAnswer };
const ModernTaskSchema: StandardSchemaV1<unknown, ModernTask> = {
  '~standard': {
    version: 1,
    vendor: 'matrix',
    validate: (v) => {
      const t = v as Partial<ModernTask> | null;
      return typeof t?.taskId === 'string' && typeof t.status === 'string' && 'ttlMs' in t
        ? { value: t as ModernTask }
        : { issues: [{ message: `not a 2026-07-28 task: ${JSON.stringify(v).slice(0, 200)}` }] };
    },
  },
};
const AckSchema: StandardSchemaV1<unknown, object> = {
  '~standard': { version: 1, vendor: 'matrix', validate: (v) => ({ value: v as object }) },
};

/**
 * v2 on 2026-07-28 with the extension declared. `create` tries a task-augmented tools/call the client's ways
 * and then, since it refuses them, starts the same batch over REST as the same caller (`refusal` says what
 * the client did with the task answer).
 */
export const v2ModernTasks =
  (url: string, token: string, refusal: (said: string) => void) => async (): Promise<TaskSession> => {
    const client = new V2Client(
      { name: 'matrix-tasks-v2-2026', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { extensions: { [TASKS]: {} } } },
    );
    await client.connect(new V2Transport(new URL(url), { requestInit: { headers: bearer(token) } }));
    const base = new URL(url).origin;
    return {
      modern: client.getProtocolEra() === 'modern',
      listed: async () => (await client.listTools()).tools.find((t) => t.name === TOOL)?.execution,
      create: async (n) => {
        const tried = await client.callTool(callArgs(n)).then(
          (r) => `answered ${JSON.stringify(r).slice(0, 120)}`,
          (e: unknown) => `${(e as { code?: string }).code ?? ''}: ${(e as Error).message}`,
        );
        refusal(`${client.getProtocolEra()} era; callTool ${tried}`);
        const res = await fetch(`${base}/v1/tools/records/batchCreateRecords`, {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json', prefer: 'respond-async' },
          body: JSON.stringify(callArgs(n).arguments),
        });
        if (res.status !== 202) throw new Error(`REST job start answered ${res.status}: ${await res.text()}`);
        return res.headers.get('location')!.split('/').pop()!;
      },
      get: (taskId) => client.request({ method: 'tasks/get', params: { taskId } }, ModernTaskSchema),
      result: async (taskId) => {
        const task = await client.request({ method: 'tasks/get', params: { taskId } }, ModernTaskSchema);
        if (task.result) return task.result;
        // a cancelled task carries no result on 2026-07-28: what was written is on the job's REST page
        const job = (await (await fetch(`${base}/v1/jobs/${taskId}`, { headers: bearer(token) })).json()) as {
          data: { progress: { done: number; total: number | null }; result?: Record<string, unknown> };
        };
        const { done, total } = job.data.progress;
        // cancelled while still queued: it never counted its items (total null), as the job's answer says
        if (total === null)
          return {
            isError: true,
            content: [{ type: 'text', text: `cancelled before it started (GET /v1/jobs/${taskId})` }],
          };
        return {
          structuredContent: { ...job.data.result, successful: done },
          content: [{ type: 'text', text: `cancelled after ${done} of ${total} (GET /v1/jobs/${taskId})` }],
        };
      },
      cancel: async (taskId) => void (await client.request({ method: 'tasks/cancel', params: { taskId } }, AckSchema)),
      page: async (batchId, offset) =>
        indexesOf(await client.callTool({ name: 'records_getBatchResults', arguments: { batch_id: batchId, offset } })),
      close: () => client.close(),
    };
  };

const until = async (poll: () => Promise<TaskView>, done: (t: TaskView) => boolean): Promise<TaskView[]> => {
  const seen: TaskView[] = [];
  for (let i = 0; i < 600; i++) {
    const t = await poll();
    seen.push(t);
    if (done(t)) return seen;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error(`the task did not end: last ${JSON.stringify(seen.at(-1))}`);
};

/** One step: a line with PASS when `run` answers undefined, FAIL with what it answered or threw. */
const step = async (client: string, name: string, run: () => Promise<string | { problem: string }>) => {
  const t = Date.now();
  try {
    const said = await withTimeout(run(), STEP_TIMEOUT_MS * 2, name);
    if (typeof said === 'string') line('PASS', client, name, said, Date.now() - t);
    else line('FAIL', client, name, said.problem, Date.now() - t);
  } catch (e) {
    line('FAIL', client, name, `threw: ${(e as Error).message}`, Date.now() - t);
  }
};

/** The task run of one client: a line per step. */
export const runTasks = async (client: string, open: () => Promise<TaskSession>) => {
  let session: TaskSession;
  try {
    session = await withTimeout(open(), STEP_TIMEOUT_MS, 'connect');
  } catch (e) {
    line('FAIL', client, 'task listing', `could not connect: ${(e as Error).message}`);
    return;
  }
  const s = session;
  let small: string | undefined;
  let batchId: string | undefined;
  await step(client, 'task listing', async () => {
    const execution = await s.listed();
    if (s.modern)
      return execution === undefined
        ? `${TOOL} listed with no execution member (2026-07-28: the server decides per call)`
        : { problem: `execution ${JSON.stringify(execution)} on 2026-07-28` };
    const ok = (execution as { taskSupport?: string } | undefined)?.taskSupport === 'optional';
    return ok
      ? `${TOOL} execution ${JSON.stringify(execution)}`
      : { problem: `execution ${JSON.stringify(execution)}` };
  });
  await step(client, 'task create', async () => {
    small = await s.create(SMALL);
    return /^j[0-9a-f]{32}$/.test(small) ? `task ${small} (${SMALL} inputs)` : { problem: `task id ${small}` };
  });
  await step(client, 'task poll', async () => {
    if (!small) return { problem: 'no task' };
    const seen = await until(
      () => s.get(small!),
      (t) => !['working', 'input_required'].includes(t.status),
    );
    const last = seen.at(-1)!;
    const progress = seen.map((t) => /\d+ of \d+/.exec(t.statusMessage ?? '')?.[0]).filter(Boolean);
    return last.status === 'completed' && last.statusMessage?.includes(`${SMALL} of ${SMALL}`)
      ? `${seen.length} polls, progress seen: ${[...new Set(progress)].join(', ')}; ended ${last.status}`
      : { problem: `ended ${last.status}: ${last.statusMessage}` };
  });
  await step(client, 'task result', async () => {
    if (!small) return { problem: 'no task' };
    const answer = await s.result(small);
    const counts = answer.structuredContent as { total?: number; successful?: number; batch_id?: string } | undefined;
    batchId = counts?.batch_id;
    return counts?.total === SMALL && counts.successful === SMALL && batchId
      ? `${counts.successful} of ${counts.total} written; ${textOf(answer).split('\n')[0]}`
      : { problem: `result ${JSON.stringify(counts).slice(0, 200)}` };
  });
  await step(client, 'task pages', async () => {
    if (!batchId) return { problem: 'no batch_id in the result' };
    const seen: number[] = [];
    let pages = 0;
    for (; seen.length < SMALL && pages < 20; pages++) {
      const rows = await s.page(batchId, seen.length);
      if (rows.length === 0) break;
      seen.push(...rows);
    }
    const each = new Set(seen).size === SMALL && seen.every((i) => i >= 0 && i < SMALL);
    // the continuation from an offset, as the result's text names it (records_getBatchResults {batch_id, offset})
    const half = SMALL / 2;
    const rest = await s.page(batchId, half);
    const continues = rest.length === SMALL - half && rest[0] === half && rest.at(-1) === SMALL - 1;
    return each && continues
      ? `${seen.length} rows in ${pages} page(s) of records_getBatchResults, each index once; from offset ${half}: rows ${rest[0]}-${rest.at(-1)}`
      : {
          problem: `${seen.length} rows, ${new Set(seen).size} distinct, in ${pages} pages; from offset ${half}: ${rest.length} rows from ${rest[0]}`,
        };
  });
  await step(client, 'task cancel', async () => {
    const big = await s.create(BIG);
    await s.cancel(big);
    const seen = await until(
      () => s.get(big),
      (t) => !['working', 'input_required'].includes(t.status),
    );
    if (seen.at(-1)!.status !== 'cancelled') return { problem: `ended ${seen.at(-1)!.status}` };
    const answer = await s.result(big);
    const text = textOf(answer);
    if (answer.isError)
      return /cancelled before it started/.test(text)
        ? 'cancelled before it started: nothing written'
        : { problem: `isError ${text}` };
    const written = (answer.structuredContent as { successful?: number } | undefined)?.successful ?? -1;
    return written >= 0 && written < BIG && written % 50 === 0 && text.includes(`cancelled after ${written} of ${BIG}`)
      ? `cancelled after ${written} of ${BIG} (whole chunks of 50), as the result says`
      : { problem: `written ${written}; ${text.slice(0, 200)}` };
  });
  await s.close().catch(() => undefined);
};
