import { describe, expect, it } from 'vitest';
import { everyone, testGateway } from '../support/gateway.js';

// Bad arguments answered with what to do (issues 37 and 41): an empty string is a string, so the error says
// what the string must hold; a nested member that is a prefix of real ones gets them as suggestions; an
// email or a name where a contact id goes points to crm_searchContacts.

const g = testGateway();
const error = async (tool: string, args: unknown) => {
  const r = await g.callTool(tool, args, { principal: everyone });
  expect(r.status).toBe(400);
  return (r.body as { error: { message: string; details: Record<string, unknown> } }).error;
};

describe('advice in a 400', () => {
  it('an empty string where a non-empty one is needed says so, naming the parameter', async () => {
    const e = await error('records_filterRecords', {
      app_id: 3001,
      filters: [{ field_id: 'status', match_type: '', values: ['New'] }],
    });
    // it is empty, and what it must be: the match types, from the parameter's description
    expect(e.message).toMatch(
      /^Parameter "filters\[0\]\.match_type" is empty; it must be a non-empty string: text: contains, equal, /,
    );
    expect(e.message).toContain('date: equal, before, after');
    expect(e.message).not.toContain('got ""');
    expect(e.details).toMatchObject({ parameter: 'filters[0].match_type', expected: 'non-empty string' });
  });

  it('an empty string for a choice names the choices', async () => {
    const e = await error('files_createShare', { share_type: '', items: ['fid4a9d210ff841f'] });
    expect(e.message).toMatch(/^Parameter "share_type" is empty; it must be one of "?Send"?, "?Request"?/);
    expect(e.message).not.toContain('must be a string');
  });

  it('a nested member that begins the real ones gets them as suggestions', async () => {
    const e = await error('records_filterRecords', { app_id: 3001, filters: [{ field: 'status', values: ['New'] }] });
    expect(e.message).toContain('Unknown parameter "filters[0].field"');
    expect(e.message).toContain('Did you mean "field_id", "field_label" or "field_type"?');
  });

  it.each([
    ['maria.alvarez@rosegoldrealty.com', 'for an email'],
    ['Maria Alvarez', 'for a name'],
  ])('%s as contact_id points to crm_searchContacts', async (value, what) => {
    for (const tool of ['crm_getContact', 'crm_deleteContact']) {
      const e = await error(tool, { contact_id: value });
      expect(e.message).toContain(what);
      expect(e.message).toContain(`crm_searchContacts ${JSON.stringify({ query: value })}`);
    }
  });

  it('a value of the wrong type gets no such advice', async () => {
    const e = await error('crm_getContact', { contact_id: true });
    expect(e.message).toBe('Parameter "contact_id" must be a numeric string; got true.');
  });
});
