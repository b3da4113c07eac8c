// Calls per task in search mode against full mode (issue 41), by a scripted agent that knows only what find
// answers told it. Full mode: the agent has every tool's schema from tools/list, so a task costs its steps.
// Search mode, in one session (what was found for one task is remembered for the next):
// - a task with a tool the agent does not know yet starts with gateway_findTools on the task's words (`ask`,
//   the default limit);
// - every hit of a find answer becomes known with the parameters the answer shows (required and optional names,
//   and its example call when there is one); a tool an answer names as where a required id comes from
//   (`from`), or as another tool of the group (`related`), becomes known with the parameters named there;
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
/** The other tools of the best hit's group, named with their required parameters (since issue 41). */
export interface RelatedTool {
  readonly name: string;
  readonly required: readonly string[];
  readonly example?: Readonly<Record<string, unknown>>;
}
export interface FindAnswer {
  readonly tools: readonly FoundTool[];
  readonly related?: readonly RelatedTool[];
}
export type Find = (query: string, limit?: number) => Promise<FindAnswer>;

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
  /** Why each describe was needed. */
  readonly notes: readonly string[];
}

export const walkthrough = async (tasks: readonly WalkthroughTask[], find: Find): Promise<TaskCalls[]> => {
  const known = new Map<string, Known>();
  // what an answer shows of a tool adds to what the agent knew of it
  const note = (name: string, shown: readonly string[], example?: Readonly<Record<string, unknown>>) => {
    const had = known.get(name);
    if (had?.complete) return;
    const merged = new Set([...(had?.shown ?? []), ...shown, ...Object.keys(example ?? {})]);
    const ex = example ?? had?.example;
    known.set(name, { shown: merged, ...(ex ? { example: ex } : {}), complete: false });
  };
  const learn = ({ tools: found, related = [] }: FindAnswer) => {
    for (const t of related) note(t.name, t.required, t.example);
    for (const t of found) {
      note(t.name, [...t.required.map((r) => r.name), ...t.optional], t.example);
      for (const r of t.required) {
        // "files_searchItems (needs query) or files_listChildren"
        for (const [, source, needs] of (r.from ?? '').matchAll(/\b([a-z]+_[A-Za-z]+)(?: \(needs ([a-z_, ]+)\))?/g)) {
          note(source!, needs?.split(', ') ?? []);
        }
      }
    }
  };
  /** The argument the agent could not write from what it was shown, if any. */
  const unshown = (step: Step, k: Known) =>
    k.complete
      ? undefined
      : Object.entries(step.args).find(
          ([name, value]) => !k.shown.has(name) || (nested(value) && !(name in (k.example ?? {}))),
        )?.[0];

  const out: TaskCalls[] = [];
  for (const task of tasks) {
    let finds = 0;
    let describes = 0;
    const misses: string[] = [];
    const notes: string[] = [];
    if (task.steps.some((s) => !known.has(s.tool))) {
      finds++;
      learn(await find(task.ask));
    }
    for (const step of task.steps) {
      for (const limit of [undefined, 10]) {
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
      const missing = unshown(step, k);
      if (missing !== undefined) {
        notes.push(`describe ${step.tool} for ${missing}`);
        describes++;
        k.complete = true;
      }
    }
    const full = task.steps.length;
    out.push({ ask: task.ask, full, search: full + finds + describes, finds, describes, misses, notes });
  }
  return out;
};
