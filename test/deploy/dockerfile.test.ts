import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORE_ENV } from '../../composition/core-env.js';
import { testGateway } from '../support/gateway.js';
import { ROOT } from '../support/deploy.js';

// The Dockerfile's final stage, read as text (issue 32: the embedded store failed in the container because the
// app folder is not writable by the image's user). No Docker engine runs here, so the image is NOT built by
// this test: it checks the instructions that decide it. Checked: the stage ends as a non-root USER; the data
// folder (GATEWAY_DATA_DIR, or its default resolved against WORKDIR) is made and chowned to that user before
// USER, and lies inside a declared VOLUME; the HEALTHCHECK asks an endpoint the gateway serves.

interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** The instructions of the last stage: continuation lines joined, comments dropped. */
const finalStage = (text: string): Instruction[] => {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const all = joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      return { op: op.toUpperCase(), args };
    });
  const from = all.map((i) => i.op).lastIndexOf('FROM');
  return all.slice(from);
};

/** KEY=value pairs of ENV lines (the `ENV key value` form too). */
const envOf = (stage: Instruction[]): Map<string, string> => {
  const env = new Map<string, string>();
  for (const { args } of stage.filter((i) => i.op === 'ENV')) {
    if (!args.includes('=')) {
      const [key = '', ...rest] = args.split(/\s+/);
      env.set(key, rest.join(' '));
    } else
      for (const [, key = '', value = ''] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
        env.set(key, value.replace(/^"|"$/g, ''));
  }
  return env;
};

const inside = (path: string, dir: string): boolean => {
  const rel = posix.relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !posix.isAbsolute(rel));
};

/** What is wrong with the Dockerfile's final stage for the data folder; none when it is right. */
const dataDirProblems = (text: string): string[] => {
  const stage = finalStage(text);
  const problems: string[] = [];
  const userAt = stage.map((i) => i.op).lastIndexOf('USER');
  const user = userAt >= 0 ? stage[userAt]!.args.split(':')[0]! : 'root';
  if (user === 'root' || user === '0') problems.push(`the final stage runs as ${user}`);
  const workdir = stage.filter((i) => i.op === 'WORKDIR').reduce((dir, i) => posix.resolve(dir, i.args), '/');
  const configured = envOf(stage).get('GATEWAY_DATA_DIR');
  const fallback = CORE_ENV.GATEWAY_DATA_DIR.decode(undefined);
  const dataDir = posix.resolve(workdir, configured ?? (fallback._tag === 'Right' ? fallback.right : ''));
  const volumes = stage
    .filter((i) => i.op === 'VOLUME')
    .flatMap((i) => (i.args.startsWith('[') ? (JSON.parse(i.args) as string[]) : i.args.split(/\s+/)));
  if (!volumes.some((v) => inside(dataDir, v))) problems.push(`no VOLUME holds the data folder ${dataDir}`);
  const before = userAt >= 0 ? stage.slice(0, userAt) : stage;
  const runs = before.filter((i) => i.op === 'RUN').map((i) => i.args);
  const made = runs.some((r) => new RegExp(`mkdir\\s+(-\\S+\\s+)*[^;&|]*${dataDir}(\\s|$|&|;)`).test(r));
  const owned = runs.some((r) =>
    new RegExp(`chown\\s+(-\\S+\\s+)*${user}(:\\S+)?\\s+[^;&|]*${dataDir}(\\s|$|&|;)`).test(r),
  );
  if (!made) problems.push(`the data folder ${dataDir} is not made (mkdir) before USER`);
  if (!owned) problems.push(`the data folder ${dataDir} is not given to ${user} (chown) before USER`);
  return problems;
};

const dockerfile = readFileSync(`${ROOT}/Dockerfile`, 'utf8');

describe('the Dockerfile (not built here: no Docker engine; its text is checked)', () => {
  const gateway = testGateway();
  afterAll(() => gateway.close());

  it('gives the data folder to the non-root user, inside a declared volume', () => {
    expect(dataDirProblems(dockerfile)).toEqual([]);
    const stage = finalStage(dockerfile);
    expect(stage.filter((i) => i.op === 'USER').at(-1)?.args).toBe('node');
    expect(envOf(stage).get('GATEWAY_DATA_DIR')).toBe('/var/lib/tool-gateway');
  });

  it('finds what was wrong before issue 32, and each way of getting it wrong', () => {
    const without = (pattern: RegExp) => dockerfile.replace(pattern, '');
    // Before: no folder made, no VOLUME, the default ./.gateway-data in the root-owned /app.
    const before = without(/^RUN mkdir -p \/var\/lib\/tool-gateway.*$/m)
      .replace(/^VOLUME .*$/m, '')
      .replace(' GATEWAY_DATA_DIR=/var/lib/tool-gateway', '');
    expect(dataDirProblems(before)).toEqual([
      'no VOLUME holds the data folder /app/.gateway-data',
      'the data folder /app/.gateway-data is not made (mkdir) before USER',
      'the data folder /app/.gateway-data is not given to node (chown) before USER',
    ]);
    expect(dataDirProblems(dockerfile.replace(/chown node:node \/var\/lib\/tool-gateway && /, ''))).toEqual([
      'the data folder /var/lib/tool-gateway is not given to node (chown) before USER',
    ]);
    expect(dataDirProblems(dockerfile.replace(/^USER node$/m, 'USER root'))).toContain('the final stage runs as root');
    expect(dataDirProblems(dockerfile.replace(/^USER node$/m, ''))).toContain('the final stage runs as root');
    expect(dataDirProblems(dockerfile.replace(/^VOLUME .*$/m, 'VOLUME ["/srv"]'))).toEqual([
      'no VOLUME holds the data folder /var/lib/tool-gateway',
    ]);
    expect(
      dataDirProblems(dockerfile.replace('GATEWAY_DATA_DIR=/var/lib/tool-gateway', 'GATEWAY_DATA_DIR=/data')),
    ).toEqual([
      'no VOLUME holds the data folder /data',
      'the data folder /data is not made (mkdir) before USER',
      'the data folder /data is not given to node (chown) before USER',
    ]);
  });

  it('checks health on an endpoint the gateway serves, and runs the built server', async () => {
    const stage = finalStage(dockerfile);
    const check = stage.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    const path = /\/(healthz|health|readyz|livez)\b/.exec(check)?.[0];
    expect(path).toBe('/healthz');
    expect((await gateway.http.request(path!)).status).toBe(200);
    expect(stage.find((i) => i.op === 'CMD')?.args).toBe('["node", "dist/composition/main.js"]');
    // The migration entry the deployments run (node dist/composition/migrate.js) is built from this source.
    expect(existsSync(`${ROOT}/composition/migrate.ts`)).toBe(true);
  });
});
