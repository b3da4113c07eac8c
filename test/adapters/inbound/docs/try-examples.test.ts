import { describe, expect, it } from 'vitest';
import { NEEDS_EARLIER_CALL, TRY_EXAMPLES } from '../../../../adapters/inbound/docs/try-examples.js';
import { everyone, request, testGateway } from '../../../support/gateway.js';

// "Try it" that works on first try (issue 37): every body the reference page starts with succeeds against the
// demo data as it stands, each on a gateway of its own (a delete's dry run, a create, an update...). A body
// whose id only an earlier call gives works once that call's answer supplies it, as the page says.

const call = async (tool: string, args: unknown) => {
  const g = testGateway();
  return { g, r: await g.callTool(tool, args, { principal: everyone, format: 'json' }) };
};

/** The id an earlier call's answer gives, by the parameter it goes to. */
const idFrom = (data: any, parameter: string): unknown =>
  parameter === 'share_id'
    ? (data.share?.Id ?? data.Id)
    : parameter === 'comment_id'
      ? data.comment_id
      : parameter === 'batch_id'
        ? data.batch_id
        : data.record_id;

describe('the reference page prefilled bodies', () => {
  const registry = testGateway().executor.registry;

  it('name every tool, and only tools', () => {
    const tools = registry.tools.map((t) => t.name).sort();
    expect(Object.keys(TRY_EXAMPLES).sort()).toEqual(tools);
    for (const [tool, earlier] of Object.entries(NEEDS_EARLIER_CALL)) {
      expect(tools, tool).toContain(tool);
      expect(tools, earlier).toContain(earlier);
    }
  });

  it.each(Object.keys(TRY_EXAMPLES).filter((t) => !NEEDS_EARLIER_CALL[t]))(
    '%s succeeds on the demo data',
    async (tool) => {
      const { r } = await call(tool, TRY_EXAMPLES[tool]);
      expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    },
  );

  it.each(Object.entries(NEEDS_EARLIER_CALL))('%s succeeds with the id %s answers', async (tool, earlier) => {
    const g = testGateway();
    // the earlier call as a person makes it to get the id: a delete for real, not its dry run
    const { dry_run: _dryRun, ...first } = TRY_EXAMPLES[earlier]!;
    const made = await g.callTool(earlier, first, { principal: everyone, format: 'json' });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(200);
    const body = { ...TRY_EXAMPLES[tool]! };
    const parameter = Object.keys(body).find((k) => k.endsWith('_id'))!;
    body[parameter] = idFrom((made.body as any).data, parameter);
    const r = await g.callTool(tool, body, { principal: everyone, format: 'json' });
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
  });

  it('are served to the page', async () => {
    const res = await request(testGateway(), 'GET', '/docs/try-examples.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.body.examples.crm_getContact).toEqual({ contact_id: '101' });
    expect(res.body.needs_earlier_call.files_getShare).toBe('files_createShare');
  });
});
