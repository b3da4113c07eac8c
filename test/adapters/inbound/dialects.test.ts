import { leanSchema } from '../../../adapters/inbound/dialects/tool-dialects.js';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import type { ToolListing } from '../../../application/runtime/registry.js';
import { GEMINI_KEYWORDS, GEMINI_TYPES, toGeminiParameters } from '../../../adapters/inbound/dialects/gemini-schema.js';
import { dropNullOptionals, toOpenAiStrict } from '../../../adapters/inbound/dialects/openai-schema.js';
import { everyone, request, testGateway } from '../../support/gateway.js';

const gateway = testGateway();
const tools = gateway.listTools();
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Node = Record<string, any>;

/** Every schema node below (and including) `node`, with its path. */
const nodes = (node: Node, path = '$'): Array<[string, Node]> => {
  const out: Array<[string, Node]> = [[path, node]];
  for (const [k, v] of Object.entries(node['properties'] ?? {})) out.push(...nodes(v as Node, `${path}.${k}`));
  if (node['items']) out.push(...nodes(node['items'], `${path}[]`));
  for (const [i, m] of (node['anyOf'] ?? []).entries()) out.push(...nodes(m, `${path}|${i}`));
  if (node['additionalProperties'] && typeof node['additionalProperties'] === 'object')
    out.push(...nodes(node['additionalProperties'], `${path}{}`));
  return out;
};

const isOpenObject = (n: Node) =>
  n['type'] === 'object' && n['additionalProperties'] !== undefined && n['additionalProperties'] !== false;
const isUntyped = (n: Node) => n['type'] === undefined && !n['anyOf'] && !n['enum'] && n['const'] === undefined;

/** Whether a JSON Schema has a node that strict mode cannot express: an open dictionary or a value of any type. */
const strictInexpressible = (schema: JsonSchema) =>
  nodes(schema as Node).some(([, n]) => isOpenObject(n) || isUntyped(n));

/** Whether the Gemini subset cannot express it: those, or a nested object without properties. */
const geminiInexpressible = (schema: JsonSchema) =>
  strictInexpressible(schema) ||
  nodes(schema as Node).some(
    ([path, n]) => path !== '$' && n['type'] === 'object' && Object.keys(n['properties'] ?? {}).length === 0,
  );

const listing = async (dialect: string) => {
  const res = await request(gateway, 'GET', `/v1/tools?dialect=${dialect}`, { token: null });
  expect(res.status).toBe(200);
  expect(res.body.data.dialect).toBe(dialect);
  expect(res.body.data.tools).toHaveLength(tools.length);
  return res.body.data.tools as Node[];
};

const OPENAI_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'format',
]);

/** OpenAI strict mode's rules, checked on every node of one parameters schema. */
const strictViolations = (root: Node): string[] => {
  const problems: string[] = [];
  if (root['type'] !== 'object') problems.push('root is not an object');
  for (const [path, n] of nodes(root)) {
    for (const k of Object.keys(n)) if (!OPENAI_KEYWORDS.has(k)) problems.push(`${path}: keyword ${k}`);
    const types = ([] as unknown[]).concat(n['type'] ?? []);
    if (types.includes('object')) {
      if (n['additionalProperties'] !== false) problems.push(`${path}: additionalProperties is not false`);
      const keys = Object.keys(n['properties'] ?? {});
      if (JSON.stringify([...(n['required'] ?? [])].sort()) !== JSON.stringify([...keys].sort()))
        problems.push(`${path}: not every property is required`);
    }
    if (!n['type'] && !n['anyOf'] && !n['enum']) problems.push(`${path}: no type`);
  }
  return problems;
};

/** Whether a strict-mode node accepts null. */
const acceptsNull = (n: Node) =>
  ([] as unknown[]).concat(n['type'] ?? []).includes('null') ||
  (n['anyOf'] ?? []).some((m: Node) => m['type'] === 'null');

describe('GET /v1/tools?dialect=openai', () => {
  it('gives every tool as a function with a valid name, in strict mode wherever strict mode can express it', async () => {
    const listed = await listing('openai');
    for (const [i, entry] of listed.entries()) {
      const tool = tools[i]!;
      expect(entry['type']).toBe('function');
      const fn = entry['function'];
      expect(fn.name).toBe(tool.name);
      expect(fn.name).toMatch(NAME);
      expect(fn.description).toBe(tool.description);
      expect(fn.strict, tool.name).toBe(!strictInexpressible(tool.inputSchema));
      if (!fn.strict) {
        expect(fn.parameters).toEqual(tool.inputSchema);
        continue;
      }
      expect(strictViolations(fn.parameters), tool.name).toEqual([]);
      // Optional parameters (at any depth) are the nullable ones; required ones are not.
      const original = new Map(nodes(tool.inputSchema as Node));
      for (const [path, n] of nodes(fn.parameters)) {
        const match = /^(.*)\.([^.[\]|{}]+)$/.exec(path);
        if (!match) continue;
        const parent = original.get(match[1]!);
        const optional = !(parent?.['required'] ?? []).includes(match[2]!);
        expect(acceptsNull(n), `${tool.name} ${path}`).toBe(optional);
      }
    }
  });

  it('strict-mode arguments with nulls for what was left out run once the nulls are dropped', async () => {
    const tool = tools.find((t) => t.name === 'crm_searchContacts')!;
    const strict = toOpenAiStrict(tool.inputSchema)!;
    const args = Object.fromEntries(Object.keys(strict['properties'] as object).map((k) => [k, null])) as Record<
      string,
      unknown
    >;
    args['query'] = 'maria';
    const cleaned = dropNullOptionals(tool.inputSchema, args);
    expect(cleaned).toEqual({ query: 'maria' });
    const r = await gateway.callTool(tool.name, cleaned, { principal: everyone, format: 'json' });
    expect(r.status).toBe(200);
    // Nested optional nulls go too; a null in a required member is left for the gateway to refuse.
    expect(dropNullOptionals(tool.inputSchema, { sorts: [{ propertyName: 'email', direction: null }] })).toEqual({
      sorts: [{ propertyName: 'email' }],
    });
    expect(dropNullOptionals(tool.inputSchema, { sorts: [{ propertyName: null }] })).toEqual({
      sorts: [{ propertyName: null }],
    });
  });

  it('folds keywords strict mode rejects into the description and handles unions, constants and dictionaries', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'A name.' },
        size: { type: 'integer', minimum: 1, maximum: 9, default: 3, description: 'A size.' },
        mode: { const: 'fast', description: 'The mode.' },
        pick: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'Either.' },
      },
      required: ['name', 'mode'],
      additionalProperties: false,
    };
    const strict = toOpenAiStrict(schema)!;
    expect(strictViolations(strict)).toEqual([]);
    const p = strict['properties'] as Record<string, Node>;
    expect(p['name']).toEqual({ type: 'string', description: 'A name. Must not be empty.' });
    expect(p['size']).toMatchObject({ type: ['integer', 'null'], minimum: 1, maximum: 9 });
    expect(p['size']!['description']).toContain('Default: 3.');
    expect(p['mode']).toMatchObject({ type: 'string', enum: ['fast'] });
    expect(p['pick']!['anyOf']).toEqual([{ type: 'string' }, { type: 'integer' }, { type: 'null' }]);
    expect(
      toOpenAiStrict({
        type: 'object',
        properties: { m: { type: 'object', additionalProperties: { type: 'string' } } },
        required: [],
        additionalProperties: false,
      }),
    ).toBeUndefined();
  });
});

describe('GET /v1/tools?dialect=anthropic', () => {
  it('gives name, description and the JSON Schema as input_schema', async () => {
    const listed = await listing('anthropic');
    for (const [i, entry] of listed.entries()) {
      const tool = tools[i]!;
      expect(Object.keys(entry).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(entry['name']).toMatch(NAME);
      expect(entry['name']).toBe(tool.name);
      expect(entry['input_schema']).toEqual(leanSchema(tool.inputSchema));
      expect(entry['input_schema'].type).toBe('object');
    }
  });
});

/** Gemini's OpenAPI-subset rules, checked on every node. */
const geminiViolations = (root: Node): string[] => {
  const problems: string[] = [];
  for (const [path, n] of nodes(root)) {
    for (const k of Object.keys(n)) if (!GEMINI_KEYWORDS.has(k)) problems.push(`${path}: keyword ${k}`);
    if (!n['anyOf'] && !GEMINI_TYPES.has(n['type'])) problems.push(`${path}: type ${n['type']}`);
    if (n['enum'] && !n['enum'].every((v: unknown) => typeof v === 'string')) problems.push(`${path}: non-string enum`);
    if (n['type'] === 'OBJECT') {
      const keys = Object.keys(n['properties'] ?? {});
      if (keys.length === 0) problems.push(`${path}: OBJECT without properties`);
      for (const key of keys)
        if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/.test(key)) problems.push(`${path}: property name ${key}`);
      for (const r of n['required'] ?? [])
        if (!keys.includes(r)) problems.push(`${path}: required ${r} is not a property`);
    }
  }
  return problems;
};

describe('GET /v1/tools?dialect=gemini', () => {
  it('gives function declarations whose parameters stay within Gemini’s OpenAPI subset', async () => {
    const listed = await listing('gemini');
    for (const [i, entry] of listed.entries()) {
      const tool = tools[i]!;
      expect(entry['name']).toBe(tool.name);
      expect(entry['name']).toMatch(/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/);
      expect(entry['description']).toBe(tool.description);
      const hasParams = Object.keys(tool.inputSchema.properties ?? {}).length > 0;
      if (!hasParams) {
        expect(entry['parameters']).toBeUndefined();
        expect(entry['parametersJsonSchema']).toBeUndefined();
      } else if (geminiInexpressible(tool.inputSchema)) {
        // The subset has no open maps: such a tool takes Gemini's JSON Schema field instead.
        expect(entry['parameters']).toBeUndefined();
        expect(entry['parametersJsonSchema']).toEqual(tool.inputSchema);
      } else {
        expect(entry['parametersJsonSchema']).toBeUndefined();
        expect(entry['parameters'].type).toBe('OBJECT');
        expect(geminiViolations(entry['parameters']), tool.name).toEqual([]);
        // Nothing is lost: the same properties and required lists at every level.
        const original = nodes(tool.inputSchema as Node).map(([p, n]) => [
          p,
          Object.keys(n['properties'] ?? {}),
          n['required'] ?? [],
        ]);
        const converted = nodes(entry['parameters']).map(([p, n]) => [
          p,
          Object.keys(n['properties'] ?? {}),
          n['required'] ?? [],
        ]);
        expect(converted).toEqual(original);
      }
    }
  });

  it('turns constants, numeric enums, nullable unions and defaults into what the subset accepts', () => {
    const out = toGeminiParameters({
      type: 'object',
      properties: {
        mode: { const: 'fast', description: 'The mode.' },
        level: { enum: [1, 2, 3], description: 'The level.' },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Maybe.' },
        size: { type: 'integer', default: 3, minimum: 1, description: 'A size.' },
      },
      required: ['mode'],
      additionalProperties: false,
    }) as { parameters: Node };
    expect(geminiViolations(out.parameters)).toEqual([]);
    const p = out.parameters['properties'];
    expect(p.mode).toEqual({ type: 'STRING', enum: ['fast'], description: 'The mode.' });
    expect(p.level).toEqual({ type: 'INTEGER', description: 'The level. One of 1, 2, 3.' });
    expect(p.maybe).toEqual({ type: 'STRING', nullable: true, description: 'Maybe.' });
    expect(p.size).toEqual({ type: 'INTEGER', minimum: 1, description: 'A size. Default: 3.' });
  });
});

describe('GET /v1/tools?dialect=mcp', () => {
  it("states the hints that say something, and none that MCP's defaults would get wrong", async () => {
    const listed = await listing('mcp');
    for (const [i, entry] of listed.entries()) {
      const tool: ToolListing = tools[i]!;
      const kind = tool.annotations[0];
      expect(entry['name']).toBe(tool.name);
      expect(entry['inputSchema']).toEqual(leanSchema(tool.inputSchema));
      // Read: only readOnlyHint. A change: destructiveHint and idempotentHint always stated (MCP's default
      // destructiveHint is true). openWorldHint only when false (its default is true).
      expect(entry['annotations']).toEqual({
        ...(kind === 'Read'
          ? { readOnlyHint: true }
          : { destructiveHint: kind === 'Destructive', idempotentHint: tool.annotations.includes('Idempotent') }),
        ...(tool.openWorldHint ? {} : { openWorldHint: false }),
      });
    }
    const del = listed.find((t) => t['name'] === 'crm_deleteContact')!;
    expect(del['annotations']).toEqual({ destructiveHint: true, idempotentHint: true });
  });

  it('leaves out the "Default: X." sentence where the default keyword says it', async () => {
    const listed = await listing('mcp');
    const limit = listed.find((t) => t['name'] === 'records_filterRecords')!['inputSchema'].properties.limit;
    expect(limit).toMatchObject({ default: 100, description: 'Records per page, at most 500.' });
    expect(JSON.stringify(listed)).not.toMatch(/Default: [^"]*","default"/);
    // The OpenAI form keeps it (strict mode has no default keyword).
    expect(JSON.stringify(await listing('openai'))).toContain('Records per page, at most 500. Default: 100.');
  });

  it('leaves out the abuse bounds and what JSON Schema assumes anyway, and keeps what says what a value means', () => {
    const lean = leanSchema({
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1, description: 'An id.' },
        top: { type: 'integer', minimum: 1, maximum: 500, description: 'Per page.' },
        skip: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'To skip.' },
        q: { type: 'string', maxLength: 500, description: 'Words.' },
        kinds: { type: 'array', items: { type: 'string' }, maxItems: 2, description: 'Kinds.' },
        many: { type: 'array', items: { type: 'string' }, maxItems: 50, description: 'Many.' },
        flag: { type: 'boolean', default: false, description: 'A flag.' },
        on: { type: 'boolean', default: true, description: 'On unless false.' },
        open: { type: 'object', additionalProperties: true, description: 'Any members.' },
        nested: {
          type: 'object',
          properties: { a: { type: 'string', description: 'A.' } },
          required: [],
          additionalProperties: false,
          description: 'Nested.',
        },
      },
      required: [],
      additionalProperties: false,
    });
    const p = lean.properties!;
    expect(p['id']).toEqual({ type: 'integer', description: 'An id.' });
    expect(p['top']).toEqual({ type: 'integer', minimum: 1, maximum: 500, description: 'Per page.' });
    expect(p['skip']).toEqual({ type: 'integer', minimum: 0, description: 'To skip.' });
    expect(p['q']).toEqual({ type: 'string', description: 'Words.' });
    expect(p['kinds']!.maxItems).toBe(2);
    expect(p['many']!.maxItems).toBeUndefined();
    expect(p['flag']).toEqual({ type: 'boolean', description: 'A flag.' });
    expect(p['on']!.default).toBe(true);
    expect(p['open']).toEqual({ type: 'object', description: 'Any members.' });
    expect(p['nested']).toEqual({
      type: 'object',
      properties: { a: { type: 'string', description: 'A.' } },
      description: 'Nested.',
    });
    // the top level keeps required and additionalProperties: false, as every vendor's tool format expects
    expect(lean.required).toEqual([]);
    expect(lean.additionalProperties).toBe(false);
  });

  it('gives outline output schemas, or full or none with output_schemas=, as /mcp does', async () => {
    const get = async (query: string) =>
      (await request(gateway, 'GET', `/v1/tools?dialect=mcp${query}`, { token: null })).body.data.tools.find(
        (t: Node) => t['name'] === 'records_getRecord',
      );
    const outline = await get('');
    const full = await get('&output_schemas=full');
    expect(outline.outputSchema.properties.created_by).toEqual({ type: 'object' });
    expect(full.outputSchema).toEqual(tools.find((t) => t.name === 'records_getRecord')!.outputSchema);
    expect((await get('&output_schemas=none')).outputSchema).toBeUndefined();
    const bad = await request(gateway, 'GET', '/v1/tools?dialect=mcp&output_schemas=some', { token: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('output_schemas');
  });

  it('rejects an unknown dialect', async () => {
    const res = await request(gateway, 'GET', '/v1/tools?dialect=cohere', { token: null });
    expect(res.status).toBe(400);
  });
});
