import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { ARGUMENT_LIMITS, preview } from '../../application/runtime/argument-limits.js';
import { FILTER_LIMITS, parseFilter } from '../../domain/files/query.js';
import { E } from '../../domain/shared/fp.js';
import { request, testGateway, type Answer } from '../support/gateway.js';

// Input shaped to break whatever recurses over it: parameters nested 100,000 deep (JSON.stringify in the
// error explainer threw a RangeError, a 500), very wide objects and arrays, huge keys, and OData filters
// nested 5,000 deep or joining 20,000 conditions (the recursive parser). Every one gets a 400 that names
// the parameter and the limit; none gets a 5xx. Bodies are raw strings, built without recursion.

const gateway = testGateway();

const nestedArrays = (depth: number, inner = '"x"') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const nestedObjects = (depth: number, inner = '"x"') => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

const raw = (path: string, body: string, headers: Record<string, string> = {}) =>
  request(gateway, 'POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

const expectRefused = (r: Answer, parameter: string | RegExp, expected: string | RegExp) => {
  expect(r.status, r.raw.slice(0, 500)).toBe(400);
  expect(r.body.error.code).toBe('INVALID_PARAMETER');
  if (typeof parameter === 'string') expect(r.body.error.details.parameter).toBe(parameter);
  else expect(r.body.error.details.parameter).toMatch(parameter);
  expect(r.body.error.details.expected).toMatch(expected);
  // The answer stays small whatever the input was.
  expect(r.raw.length).toBeLessThan(4000);
};

const TOO_DEEP = new RegExp(`nested at most ${ARGUMENT_LIMITS.maxDepth} levels`);

describe('parameters nested 100,000 deep', () => {
  it('refuses them where a string is expected, as REST and in the tool-call form', async () => {
    const rest = await raw('/v1/tools/crm/getContact?format=json', `{"contact_id":${nestedArrays(100_000)}}`);
    expectRefused(rest, /^contact_id(\[0\])+$/, TOO_DEEP);
    const objects = await raw('/v1/tools/crm/getContact?format=json', `{"contact_id":${nestedObjects(100_000)}}`);
    expectRefused(objects, /^contact_id(\.a)+$/, TOO_DEEP);
    const call = await raw(
      '/v1/tools/call?format=json',
      `{"name":"crm_getContact","arguments":{"contact_id":${nestedArrays(100_000)}}}`,
    );
    expectRefused(call, /^contact_id/, TOO_DEEP);
  });

  it('refuses them inside free-form maps and under unknown names', async () => {
    expectRefused(
      await raw('/v1/tools/crm/createContact?format=json', `{"values":{"email":${nestedObjects(100_000)}}}`),
      /^values\.email/,
      TOO_DEEP,
    );
    expectRefused(
      await raw(
        '/v1/tools/records/createRecord?format=json',
        `{"app_id":${LEADS_APP},"fields":{"name":${nestedArrays(100_000)}}}`,
      ),
      /^fields\.name/,
      TOO_DEEP,
    );
    expectRefused(
      await raw('/v1/tools/crm/getContact?format=json', `{"contact_id":"101","nope":${nestedArrays(100_000)}}`),
      /^nope/,
      TOO_DEEP,
    );
  });

  it('refuses them with an Idempotency-Key, before the fingerprint is computed', async () => {
    const r = await raw('/v1/tools/crm/createContact?format=json', `{"values":{"email":${nestedArrays(100_000)}}}`, {
      'idempotency-key': 'deep-1',
    });
    expectRefused(r, /^values\.email/, TOO_DEEP);
  });

  it('refuses them over MCP as a tool error', async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_getContact","arguments":{"contact_id":${nestedArrays(100_000)}}}}`;
    const r = await raw('/mcp', body, { accept: 'application/json, text/event-stream' });
    expect(r.status).toBeLessThan(500);
    expect(r.raw).toMatch(TOO_DEEP);
  });

  it('accepts the nesting real tools use', async () => {
    const r = await raw(
      '/v1/tools/crm/searchContacts?format=json',
      '{"filter_groups":[{"filters":[{"propertyName":"email","operator":"IN","values":["a@b.c"]}]}]}',
    );
    expect(r.status).toBe(200);
  });

  it('never lets an error message stringify an unbounded value', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const shown = preview(deep);
    expect(shown.length).toBeLessThan(100);
    expect(preview('y'.repeat(1_000_000))).toMatch(/^"y+\.\.\. \(1000000 characters\)$/);
    expect(preview(Array.from({ length: 100_000 }, (_, i) => i))).toContain('(100000 items)');
    expect(preview({ ['k'.repeat(10_000)]: 1 }).length).toBeLessThan(100);
    expect(preview('short')).toBe('"short"');
    expect(preview(42)).toBe('42');
  });
});

describe('wide and large parameters', () => {
  it('refuses more values than the limit in all', async () => {
    const zeros = `[${Array.from({ length: ARGUMENT_LIMITS.maxNodes + 10 }, () => '0').join(',')}]`;
    expectRefused(
      await raw('/v1/tools/crm/searchContacts?format=json', `{"return_properties":${zeros}}`),
      /^return_properties\[\d+\]$/,
      /at most 100000 values/,
    );
    expectRefused(
      await raw('/v1/tools/records/createRecord?format=json', `{"app_id":${LEADS_APP},"fields":{"name":${zeros}}}`),
      /^fields\.name/,
      /at most 100000 values/,
    );
  });

  it('refuses an object with 60,000 unknown members quickly', async () => {
    const wide = `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    const start = performance.now();
    const r = await raw('/v1/tools/crm/getContact?format=json', wide);
    expect(performance.now() - start).toBeLessThan(1000);
    expectRefused(r, 'k0', 'no such parameter');
  });

  it('cuts a huge unknown key in the message and spends no time guessing what it meant', async () => {
    const start = performance.now();
    const r = await raw('/v1/tools/crm/getContact?format=json', `{"contact_id":"101","${'q'.repeat(900_000)}":1}`);
    expect(performance.now() - start).toBeLessThan(1000);
    expectRefused(r, /^q{61}\.\.\.$/, 'no such parameter');
  });

  it('answers a body that is not an object, however deep, with a 400', async () => {
    for (const body of [nestedArrays(100_000), nestedObjects(100_000), '"text"', '12', 'null']) {
      const r = await raw('/v1/tools/crm/getContact?format=json', body);
      expect(r.status, body.slice(0, 20)).toBe(400);
    }
  });
});

describe('OData filters', () => {
  const list = (filter: string) =>
    raw('/v1/tools/files/listChildren?format=json', JSON.stringify({ folder_id: 'home', filter }));
  const deepFilter = (depth: number) => `${'('.repeat(depth)}Name eq 'a'${')'.repeat(depth)}`;
  const manyTerms = (n: number) => Array.from({ length: n }, (_, i) => `Name eq '${i}'`).join(' or ');
  const notChain = (n: number) => `${'not '.repeat(n)}Name eq 'a'`;

  it('refuses a filter nested 5,000 deep and one joining 20,000 conditions (over the length limit)', async () => {
    expectRefused(await list(deepFilter(5000)), 'filter', `string of at most ${FILTER_LIMITS.maxLength} characters`);
    expectRefused(await list(manyTerms(20_000)), 'filter', `string of at most ${FILTER_LIMITS.maxLength} characters`);
  });

  it('refuses short filters past the depth or condition limits, naming the limit', async () => {
    expectRefused(await list(deepFilter(FILTER_LIMITS.maxDepth + 1)), 'filter', /nested at most 32 levels/);
    expectRefused(await list(notChain(FILTER_LIMITS.maxDepth + 1)), 'filter', /nested at most 32 levels/);
    expectRefused(
      await list(manyTerms(FILTER_LIMITS.maxConditions + 1).slice(0, FILTER_LIMITS.maxLength)),
      'filter',
      /OData filter/,
    );
    const short = Array.from({ length: FILTER_LIMITS.maxConditions + 1 }, () => "Name eq ''").join(' or ');
    expect(short.length).toBeLessThanOrEqual(FILTER_LIMITS.maxLength);
    expectRefused(await list(short), 'filter', /at most 100 conditions/);
  });

  it('still runs filters within the limits', async () => {
    expect((await list(deepFilter(FILTER_LIMITS.maxDepth))).status).toBe(200);
    expect((await list(notChain(FILTER_LIMITS.maxDepth - 1))).status).toBe(200);
    expect(
      (await list(Array.from({ length: FILTER_LIMITS.maxConditions }, () => "Name eq ''").join(' or '))).status,
    ).toBe(200);
  });

  it('bounds the parser itself, for every caller (the ShareFile stand-in parses filters too)', () => {
    const start = performance.now();
    for (const source of [
      deepFilter(5000),
      deepFilter(100_000),
      manyTerms(20_000),
      notChain(50_000),
      '('.repeat(1_000_000),
    ]) {
      const parsed = parseFilter(source);
      expect(E.isLeft(parsed)).toBe(true);
      if (E.isLeft(parsed)) expect(parsed.left.parameter).toBe('filter');
    }
    const deep = parseFilter(deepFilter(40));
    expect(E.isLeft(deep) && deep.left.expected).toMatch(/nested at most 32 levels/);
    const wide = parseFilter(Array.from({ length: 120 }, () => "Name eq ''").join(' or '));
    expect(E.isLeft(wide) && wide.left.expected).toMatch(/at most 100 conditions/);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
