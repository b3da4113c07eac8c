// Calls per task in search mode against full mode (issue 41), by a scripted agent that knows only what find
// answers told it. Full mode: the agent has every tool's schema from tools/list, so a task costs its steps.
// Search mode, in one session (what was found for one task is remembered for the next):
// - a task with a tool the agent does not know yet starts with gateway_findTools on the task's words (`ask`);
// - every hit of a find answer becomes known with the parameters the answer shows (required and optional names,
//   and its example call when there is one); a tool an answer names as where a required id comes from
//   (`from`) becomes known by name, callable without a describe only with no arguments;
// - a step whose tool is still unknown searches again with the step's own words (`find`), then with limit 10;
//   still unknown, it is a miss and costs one more call (a describe of a guessed name);
// - a step whose arguments use a parameter the answer did not show, or a nested value (an object, a list of
//   objects) of which the answer showed no example, costs a gateway_describeTool first;
// - then one call. The arguments are not sent: this counts calls, it does not run the tasks.

export interface Step {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly find?: string;
}
export interface WalkthroughTask {
  readonly ask: string;
  readonly steps: readonly Step[];
}

/** A hit of a find answer as its structuredContent gives it (`example` and `from` since issue 41). */
export interface FoundTool {
  readonly name: string;
  readonly required: ReadonlyArray<{ readonly name: string; readonly from?: string }>;
  readonly optional: readonly string[];
  readonly example?: Readonly<Record<string, unknown>>;
}
export type Find = (query: string, limit: number) => Promise<readonly FoundTool[]>;

interface Known {
  readonly shown: ReadonlySet<string>;
  readonly example?: Readonly<Record<string, unknown>>;
  complete: boolean;
}

const nested = (v: unknown): boolean =>
  (typeof v === 'object' && v !== null && !Array.isArray(v)) ||
  (Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null));

export interface TaskCalls {
  readonly ask: string;
  readonly full: number;
  readonly search: number;
  readonly finds: number;
  readonly describes: number;
  readonly misses: readonly string[];
}

export const walkthrough = async (tasks: readonly WalkthroughTask[], find: Find): Promise<TaskCalls[]> => {
  const known = new Map<string, Known>();
  const learn = (found: readonly FoundTool[]) => {
    for (const t of found) {
      if (!known.get(t.name)?.complete) {
        const shown = new Set([...t.required.map((r) => r.name), ...t.optional]);
        known.set(t.name, { shown, ...(t.example ? { example: t.example } : {}), complete: false });
      }
      for (const r of t.required) {
        for (const source of r.from?.match(/\b[a-z]+_[A-Za-z]+\b/g) ?? []) {
          if (!known.has(source)) known.set(source, { shown: new Set(), complete: false });
        }
      }
    }
  };
  const needsDescribe = (step: Step, k: Known) =>
    !k.complete &&
    Object.entries(step.args).some(
      ([name, value]) => !k.shown.has(name) || (nested(value) && !(name in (k.example ?? {}))),
    );

  const out: TaskCalls[] = [];
  for (const task of tasks) {
    let finds = 0;
    let describes = 0;
    const misses: string[] = [];
    if (task.steps.some((s) => !known.has(s.tool))) {
      finds++;
      learn(await find(task.ask, 5));
    }
    for (const step of task.steps) {
      for (const limit of [5, 10]) {
        if (known.has(step.tool)) break;
        finds++;
        learn(await find(step.find ?? task.ask, limit));
      }
      if (!known.has(step.tool)) {
        misses.push(step.tool);
        describes++;
        known.set(step.tool, { shown: new Set(), complete: true });
      }
      const k = known.get(step.tool)!;
      if (needsDescribe(step, k)) {
        describes++;
        k.complete = true;
      }
    }
    const full = task.steps.length;
    out.push({ ask: task.ask, full, search: full + finds + describes, finds, describes, misses });
  }
  return out;
};
