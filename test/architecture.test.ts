import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

// The dependency rule of the hexagon, checked on every import of every source file.
const root = resolve(import.meta.dirname, '..');
const LAYERS = ['domain', 'ports', 'application', 'adapters', 'composition'] as const;
type Layer = (typeof LAYERS)[number];

const ALLOWED: Record<Layer, readonly Layer[]> = {
  domain: [],
  ports: ['domain'],
  application: ['domain', 'ports'],
  adapters: ['application', 'ports', 'domain'],
  composition: ['domain', 'ports', 'application', 'adapters'],
};

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

const layerOf = (path: string): Layer | undefined => LAYERS.find((l) => relative(root, path).startsWith(`${l}/`));

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('the dependency rule', () => {
  for (const layer of LAYERS) {
    it(`${layer} imports only ${ALLOWED[layer].join(', ') || 'nothing of ours'}`, () => {
      const violations: string[] = [];
      for (const file of files(join(root, layer))) {
        const source = readFileSync(file, 'utf8');
        for (const m of source.matchAll(IMPORT)) {
          const spec = m[1] ?? m[2]!;
          if (!spec.startsWith('.')) {
            if (layer === 'domain' && !spec.startsWith('fp-ts'))
              violations.push(`${relative(root, file)} imports package ${spec}`);
            continue;
          }
          const target = layerOf(resolve(dirname(file), spec));
          if (target && target !== layer && !ALLOWED[layer].includes(target))
            violations.push(`${relative(root, file)} -> ${spec}`);
          if (!target) violations.push(`${relative(root, file)} imports outside the layers: ${spec}`);
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it('nothing but the composition imports the composition', () => {
    const offenders = LAYERS.filter((l) => l !== 'composition').flatMap((l) =>
      files(join(root, l)).filter((f) => /from\s+['"][./]*composition\//.test(readFileSync(f, 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });
});
