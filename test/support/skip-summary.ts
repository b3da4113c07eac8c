import { existsSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { SkipRecord } from './skips.js';

// A reporter that prints, after vitest's own summary, which test files skipped tests on this machine and
// what would enable them: the reasons registered with registerSkip/skipUnless (test/support/skips.ts), and,
// for a file that skipped without registering one, the note or name of what it skipped. A run in which
// nothing was skipped prints nothing. Runs filtered by test name (-t) skip everything else on purpose, so
// only registered reasons are printed then.

/** The file the reasons are appended to, one JSON line each; set by vitest.config.ts for every worker. */
export const SKIP_LOG_VARIABLE = 'TOOL_GATEWAY_SKIP_LOG';

const readRecords = (log: string): SkipRecord[] => {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as SkipRecord];
      } catch {
        return [];
      }
    });
};

/** What a file that registered no reason skipped: a ctx.skip note, else a skipped test's or suite's name. */
const unexplained = (module: TestModule): string | undefined => {
  const skipped = [...module.children.allTests('skipped')];
  if (skipped.length === 0) return undefined;
  const noted = skipped
    .map((t) => t.result())
    .map((r) => (r.state === 'skipped' ? r.note : undefined))
    .find(Boolean);
  if (noted) return noted;
  const topLevel = [...module.children.tests('skipped')][0];
  if (topLevel) return topLevel.name;
  const suite = [...module.children.suites()].find((s) => s.state() === 'skipped');
  return suite?.name ?? skipped[0]!.fullName;
};

export class SkipSummary implements Reporter {
  #vitest: Vitest | undefined;

  constructor(private readonly log: string) {}

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
    rmSync(this.log, { force: true });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = this.#vitest?.config.root ?? process.cwd();
    const records = readRecords(this.log);
    rmSync(this.log, { force: true });
    const byReason = new Map<string, Set<string>>();
    for (const { file, reason } of records) {
      const files = byReason.get(reason) ?? new Set<string>();
      files.add(relative(root, file));
      byReason.set(reason, files);
    }
    const explained = new Set(records.map((r) => relative(root, r.file)));
    const others: string[] = [];
    if (this.#vitest?.config.testNamePattern === undefined) {
      for (const module of modules) {
        const file = relative(root, module.moduleId);
        if (explained.has(file)) continue;
        const what = unexplained(module);
        if (what) others.push(`    ${file}: ${what}`);
      }
    }
    if (byReason.size === 0 && others.length === 0) return;
    const lines = ['', 'Skipped on this machine, and what enables each:'];
    for (const [reason, files] of byReason) {
      lines.push(`  ${reason}`, ...[...files].sort().map((file) => `    ${file}`));
    }
    if (others.length) lines.push('  No reason registered (the file says why):', ...others.sort());
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
