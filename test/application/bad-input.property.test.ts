import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../application/runtime/json-schema.js';
import type { ToolListing } from '../../application/runtime/registry.js';
import { everyone, request, testGateway } from '../support/gateway.js';

// Thousands of generated bad inputs against every tool: every answer must be a well-formed error
// envelope with a 4xx status (never a 500), and no refused call may change the in-memory state.

const gateway = testGateway({}, { RATE_LIMIT_PER_MINUTE: '1000000' });
const tools = gateway.listTools();

/** A digest of everything reachable from the use cases (the adapters and their data), functions skipped. */
const stateDigest = (): string => {
  const hash = createHash('sha256');
  const seen = new Map<object, number>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 40) return;
    if (v === null || typeof v !== 'object') {
      if (typeof v !== 'function') hash.update(`${typeof v}:${String(v)};`);
      return;
    }
    if (seen.has(v)) return void hash.update(`ref${seen.get(v)};`);
    seen.set(v, seen.size);
    if (v instanceof Promise || (ArrayBuffer.isView(v) && (v as Uint8Array).length > 1_000_000)) return;
    if (v instanceof Map) {
      hash.update(`map${v.size}{`);
      for (const [k, x] of v) {
        walk(k, depth + 1);
        walk(x, depth + 1);
      }
      return void hash.update('}');
    }
    if (v instanceof Set) {
      hash.update(`set${v.size}{`);
      for (const x of v) walk(x, depth + 1);
      return void hash.update('}');
    }
    if (v instanceof Date) return void hash.update(`date:${v.getTime()};`);
    if (ArrayBuffer.isView(v))
      return void hash.update(
        `bytes:${createHash('sha256')
          .update(v as Uint8Array)
          .digest('hex')};`,
      );
    for (const key of Object.keys(v).sort()) {
      hash.update(`${key}=`);
      walk((v as Record<string, unknown>)[key], depth + 1);
    }
  };
  // The default tenant's use cases (the root container's): `everyone` acts for that tenant.
  walk(
    gateway.executor.registry.tools.map((t) => gateway.container.get(t.declaration.useCase)),
    0,
  );
  return hash.digest('hex');
};

const huge = 'x'.repeat(200_000);
const deep = (n: number): unknown => (n === 0 ? [] : [deep(n - 1)]);
const oddNames = [
  '\u202econtact_id',
  'ｃｏｎｔａｃｔ',
  'id\u0000',
  '\ud800',
  '__proto__x',
  'constructor ',
  '💥',
  'a'.repeat(300),
];

/** A value that the schema refuses, whatever the codec's leniency (ids as numeric strings, etc.). */
const wrongFor = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  const always = [fc.constant(deep(60)), fc.constant({ nested: { too: { deep: [1, { x: huge }] } } })];
  switch (schema.type) {
    case 'string':
      return fc.oneof(
        ...always,
        fc.constant(null),
        fc.boolean(),
        fc.constant([huge]),
        fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
        fc.constant(1.5),
        fc.constant(-7),
      );
    case 'integer':
    case 'number':
      return fc.oneof(
        ...always,
        fc.constant(null),
        fc.boolean(),
        fc.constant('12abc'),
        fc.constant('\u0661\u0662'),
        fc.constant(huge),
        fc.constant(Number.MAX_VALUE),
        fc.constant(-1.25),
        fc.constant({ value: 1 }),
      );
    case 'boolean':
      return fc.oneof(
        ...always,
        fc.constant(null),
        fc.constant('yes'),
        fc.constant('true '),
        fc.integer({ min: 2 }),
        fc.constant([true]),
      );
    case 'array':
      return fc.oneof(
        fc.constant(deep(60)).map((d) => ({ d })),
        fc.constant(null),
        fc.string(),
        fc.integer(),
        fc.constant({ 0: 'a' }),
        fc.constant(huge),
      );
    case 'object':
      return fc.oneof(
        fc.constant(deep(60)),
        fc.constant(null),
        fc.string(),
        fc.integer(),
        fc.constant([{}]),
        fc.constant(huge),
      );
    default:
      return fc.oneof(fc.constant(deep(60)), fc.constant(Symbol.for('x').toString() + huge));
  }
};

const validish = (schema: JsonSchema): unknown => {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return schema.pattern === '^[0-9]+$' ? '101' : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return {};
  }
};

/** Arguments that are certainly wrong: an unknown member, a missing required one, or a wrong type. */
const badArguments = (tool: ToolListing): fc.Arbitrary<unknown> => {
  const props = tool.inputSchema.properties ?? {};
  const names = Object.keys(props);
  const required = tool.inputSchema.required ?? [];
  const base = Object.fromEntries(required.map((n) => [n, validish(props[n]!)]));
  const options: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(fc.constantFrom(...oddNames), fc.oneof(fc.string(), fc.constant(huge), fc.constant(deep(60))))
      .map(([k, v]) => ({ ...base, [k]: v })),
    fc.constantFrom(null, 'a string', 42, true, [base], deep(80)),
  ];
  if (required.length)
    options.push(
      fc.constantFrom(...required).map((n) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== n))),
    );
  // null is not wrong for an optional parameter: it means "not given" (OpenAI's strict mode sends it).
  if (names.length) {
    options.push(
      fc.constantFrom(...names).chain((n) =>
        wrongFor(props[n]!)
          .filter((v) => v !== null || required.includes(n))
          .map((v) => ({ ...base, [n]: v })),
      ),
    );
  }
  return fc.oneof(...options);
};

/** Bodies that could be valid: nothing at all, or a JSON object (an all-optional tool accepts `{}`). */
const isObjectJson = (raw: string): boolean => {
  if (raw.trim() === '') return true;
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
};

const isEnvelope = (status: number, body: unknown): boolean => {
  if (status < 400 || status >= 500) return false;
  const b = body as { success?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
  return (
    b?.success === false &&
    typeof b.error?.code === 'string' &&
    typeof b.error.message === 'string' &&
    (b.error.message as string).length > 0 &&
    typeof b.error.details === 'object'
  );
};

describe('generated bad input', () => {
  it('answers every bad call to every tool with a 4xx envelope and changes nothing', async () => {
    const before = stateDigest();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tools).chain((tool) => badArguments(tool).map((args) => ({ tool, args }))),
        async ({ tool, args }) => {
          const r = await gateway.callTool(tool.name, args, { principal: everyone, format: 'json' });
          if (!isEnvelope(r.status, r.body))
            throw new Error(
              `${tool.name} ${JSON.stringify(args)?.slice(0, 200)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`,
            );
        },
      ),
      { numRuns: 3000 },
    );
    expect(stateDigest()).toBe(before);
  }, 120_000);

  it('answers bad bodies over HTTP with a 4xx envelope', async () => {
    const before = stateDigest();
    const rawBodies = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '{',
        '{"a":',
        '[1,2',
        '\u0000',
        '{"contact_id": 1e999}',
        'null',
        '"str"',
        '{"a":1}{"b":2}',
        '\ud83d',
      ),
      fc.json().map((j) => `${j}}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), rawBodies, async (tool, raw) => {
        fc.pre(!isObjectJson(raw));
        const [group, name] = [tool.group, tool.name.slice(tool.group.length + 1)];
        const r = await request(gateway, 'POST', `/v1/tools/${group}/${name}`, {
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        if (!isEnvelope(r.status, r.body))
          throw new Error(
            `${tool.name} body ${JSON.stringify(raw).slice(0, 100)} -> ${r.status} ${r.raw.slice(0, 300)}`,
          );
      }),
      { numRuns: 1500 },
    );
    expect(stateDigest()).toBe(before);
  }, 120_000);
});

describe('the state digest', () => {
  it('sees a change that a valid write makes (so the checks above can fail)', async () => {
    const before = stateDigest();
    const r = await gateway.callTool(
      'crm_updateContact',
      { contact_id: '104', values: { jobtitle: 'Digest check' } },
      { principal: everyone },
    );
    expect(r.status).toBe(200);
    expect(stateDigest()).not.toBe(before);
  });
});
