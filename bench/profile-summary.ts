// Where the time goes in one or more V8 CPU profiles (.cpuprofile, as `node --cpu-prof` writes them):
// self time per function and per place (a package in node_modules, a Node internal, a project folder).
//
//   npx tsx bench/profile-summary.ts bench/results/*.cpuprofile [--top 25]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly micros: number;
}

/** V8's pseudo-frames: waiting for work, and time it could not attribute to a JavaScript function. */
const IDLE = new Set(['(idle)', '(program)']);

const shortUrl = (url: string): string => {
  if (!url) return '';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  const dist = path.indexOf('/dist/');
  return dist >= 0 ? path.slice(dist + '/dist/'.length) : path;
};

/** The package or folder a frame belongs to: `hono`, `node:internal`, `adapters/inbound/http`... */
const placeOf = (frame: CallFrame): string => {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (frame.url.startsWith('node:')) return 'node:internal';
  const short = shortUrl(frame.url);
  if (short !== frame.url && !short.startsWith('/')) {
    const parts = short.split('/');
    if (frame.url.includes('/node_modules/')) return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    return parts.slice(0, -1).join('/') || short;
  }
  return short;
};

const frameName = (frame: CallFrame): string => {
  const fn = frame.functionName || '(anonymous)';
  return frame.url ? `${fn} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : fn;
};

/** Microseconds of self time per key, over every sample of every profile given. */
const selfTimes = (profiles: readonly CpuProfile[], keyOf: (frame: CallFrame) => string): Map<string, number> => {
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    // A sample lasts until the next one is taken; the last lasts until the profile ends.
    let at = profile.startTime;
    const stamps = deltas.map((d) => (at += d));
    for (let i = 0; i < samples.length; i++) {
      const frame = byId.get(samples[i]!);
      if (!frame) continue;
      const micros = Math.max(0, (stamps[i + 1] ?? profile.endTime) - stamps[i]!);
      const key = keyOf(frame);
      totals.set(key, (totals.get(key) ?? 0) + micros);
    }
  }
  return totals;
};

const sorted = (totals: Map<string, number>): SelfTime[] =>
  [...totals].map(([name, micros]) => ({ name, micros })).sort((a, b) => b.micros - a.micros);

/** Self time per function and per place, busiest first, and the busy (not idle) total. */
export const summarise = (profiles: readonly CpuProfile[]) => {
  const functions = sorted(selfTimes(profiles, frameName));
  const places = sorted(selfTimes(profiles, placeOf));
  const busy = places.filter((p) => !IDLE.has(p.name)).reduce((sum, p) => sum + p.micros, 0);
  return { functions, places, busy };
};

/** The summary as Markdown tables: percentages are of busy time (idle and unattributed time left out). */
export const formatSummary = (profiles: readonly CpuProfile[], top = 25): string => {
  const { functions, places, busy } = summarise(profiles);
  const pct = (micros: number) => `${((100 * micros) / Math.max(1, busy)).toFixed(1)} %`;
  const rows = (list: readonly SelfTime[]) =>
    list
      .filter((e) => !IDLE.has(e.name))
      .slice(0, top)
      .map((e) => `| ${e.name} | ${(e.micros / 1000).toFixed(0)} | ${pct(e.micros)} |`)
      .join('\n');
  const idle = places.filter((p) => IDLE.has(p.name)).map((p) => `${p.name} ${(p.micros / 1e6).toFixed(1)} s`);
  return [
    `Busy ${(busy / 1e6).toFixed(1)} s (${idle.join(', ') || 'no idle samples'})`,
    '',
    '| place | self ms | of busy |\n|---|---|---|',
    rows(places),
    '',
    '| function | self ms | of busy |\n|---|---|---|',
    rows(functions),
  ].join('\n');
};

export const readProfile = (file: string): CpuProfile => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  if (!args.length) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile>... [--top N]');
    process.exit(2);
  }
  console.log(formatSummary(args.map(readProfile), top));
}
