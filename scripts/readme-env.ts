// Rewrites the configuration table of README.md (between the env-table markers) from composition/config.ts.
//   npm run readme:env
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENVIRONMENT } from '../composition/config.js';

const path = resolve(import.meta.dirname, '../README.md');
const readme = readFileSync(path, 'utf8');
const start = '<!-- env-table:start -->';
const end = '<!-- env-table:end -->';
const table = [
  '| variable | default | meaning |',
  '|---|---|---|',
  ...ENVIRONMENT.map(([n, d, m]) => `| \`${n}\` | ${d} | ${m.replace(/\|/g, '\\|')} |`),
].join('\n');
const a = readme.indexOf(start);
const b = readme.indexOf(end);
if (a < 0 || b < 0) throw new Error('README.md has no env-table markers');
writeFileSync(path, `${readme.slice(0, a + start.length)}\n${table}\n${readme.slice(b)}`);
console.log(`README.md: ${ENVIRONMENT.length} variables`);
