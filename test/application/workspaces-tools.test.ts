import { describe, expect, it } from 'vitest';
import { allTools } from '../../application/tools.js';
import { everyone, testGateway } from '../support/gateway.js';

const call = (g: ReturnType<typeof testGateway>, name: string, args: unknown, format: 'text' | 'json' = 'text') =>
  g.callTool(`workspaces_${name}`, args, { principal: everyone, format });

const text = (r: { body: { success: boolean; data?: unknown } }) => (r.body.success ? String(r.body.data) : '');

describe('workspaces tools in memory mode', () => {
  it('pages members with the exact next call', async () => {
    const g = testGateway();
    const first = await call(g, 'getSpaceMembers', { space_id: 2001, limit: 2 });
    expect(text(first)).toContain('Showing 1-2 of 5.');
    expect(text(first)).toContain('Next page: workspaces_getSpaceMembers {"space_id":2001,"limit":2,"offset":2}');
    const last = await call(g, 'getSpaceMembers', { space_id: 2001, limit: 2, offset: 4 });
    expect(text(last)).toContain('Showing 5-5 of 5.');
    expect(text(last)).not.toContain('Next page');
    const byName = await call(g, 'getSpaceMembers', { space_id: 2001, query: 'omar' }, 'json');
    expect(byName.body.success && byName.body.data).toEqual({
      space_id: 2001,
      offset: 0,
      total: 1,
      members: [
        {
          role: 'light',
          employee: false,
          is_partner: true,
          grants: 0,
          status: 'active',
          profile: {
            profile_id: 9106,
            user_id: 5006,
            name: 'Omar Haddad',
            mail: ['omar@haddad-partners.example'],
            type: 'user',
          },
        },
      ],
    });
    const none = await call(g, 'getSpaceMembers', { space_id: 2001, member_type: 'guest' });
    expect(text(none)).toContain('No members of space 2001 match the filter');
  });

  it('lists organisations with their spaces and limits', async () => {
    const r = text(await call(testGateway(), 'getOrganizations', {}));
    expect(r).toContain('## Organizations: 2 (3 spaces)');
    expect(r).toContain('| 2003 | Harbor Ops | closed |  |');
    expect(r).toContain('| 2001 | Acquisitions | closed | admin | https://podio.com/acme-realty-group/acquisitions |');
    expect(r).toContain('**Space user limit:** 4 members per space');
    expect(r).toContain('workspaces_createSpace {"org_id":1001,"name":"..."}');
  });

  it('reads a space plainly or verbosely', async () => {
    const g = testGateway();
    const plain = await call(g, 'getSpace', { space_id: 2002 }, 'json');
    expect(plain.body.success && plain.body.data).toEqual({
      space_id: 2002,
      name: 'Property Management',
      org_id: 1001,
      url: 'https://podio.com/acme-realty-group/property-management',
      url_label: 'property-management',
      privacy: 'open',
      type: 'regular',
      auto_join: false,
      post_on_new_app: true,
      post_on_new_member: true,
    });
    const verbose = text(await call(g, 'getSpace', { space_id: 2002, verbose: true }));
    expect(verbose).toContain('**Organization:** Acme Realty Group (org_id 1001)');
    expect(verbose).toContain('**Created:** 2025-09-01 08:00:00 by Maria Gonzalez (user_id 5001)');
    expect(verbose).toContain('**Your role:** admin');
  });

  it('updates only the given values and answers with the changed space', async () => {
    const g = testGateway();
    const r = await call(g, 'updateSpace', { space_id: 2002, privacy: 'closed' }, 'json');
    expect(r.body).toEqual({ success: true, data: { updated: true, space_id: 2002 } });
    const after = await call(g, 'getSpace', { space_id: 2002 }, 'json');
    expect(after.body.success && after.body.data).toMatchObject({
      name: 'Property Management',
      privacy: 'closed',
      url_label: 'property-management',
    });
  });

  it('explains mistakes a model can fix', async () => {
    const g = testGateway();
    const nothing = await call(g, 'updateSpace', { space_id: 2002 });
    expect(nothing.status).toBe(400);
    expect(!nothing.body.success && nothing.body.error.message).toContain('Nothing to change');
    const label = await call(g, 'updateSpace', { space_id: 2002, url_label: 'Deal Flow!' });
    expect(!label.body.success && label.body.error.message).toContain('"deal-flow"');
    const taken = await call(g, 'updateSpace', { space_id: 2002, url_label: 'acquisitions' });
    expect(taken.status).toBe(409);
    const nobody = await call(g, 'addMemberToSpace', { space_id: 2002, role: 'regular' });
    expect(nobody.status).toBe(400);
    expect(!nobody.body.success && nobody.body.error.details).toMatchObject({ parameter: 'users' });
    const badMail = await call(g, 'addMemberToSpace', { space_id: 2002, role: 'regular', mails: ['not-an-address'] });
    expect(!badMail.body.success && badMail.body.error.details).toMatchObject({ parameter: 'mails[0]' });
    const unknownUser = await call(g, 'addMemberToSpace', { space_id: 2002, role: 'regular', users: [424242] });
    expect(unknownUser.status).toBe(404);
    const badRole = await call(g, 'updateSpaceMemberships', { space_id: 2002, user_ids: [5003], role: 'owner' });
    expect(badRole.status).toBe(400);
    const notMember = await call(g, 'endSpaceMemberships', { space_id: 2002, user_ids: [5006] });
    expect(notMember.status).toBe(404);
    expect(!notMember.body.success && notMember.body.error.message).toContain('workspaces_getSpaceMembers');
    const noOrg = await call(g, 'createSpace', { org_id: 777, name: 'X' });
    expect(!noOrg.body.success && noOrg.body.error.message).toContain('workspaces_getOrganizations');
  });

  it('reports an existing member as unchanged instead of adding them twice', async () => {
    const g = testGateway();
    const r = await call(
      g,
      'addMemberToSpace',
      { space_id: 2002, role: 'light', users: [5003], mails: ['PRIYA.SHAH@acmerealty.example'] },
      'json',
    );
    expect(r.body.success && r.body.data).toEqual({
      space_id: 2002,
      role: 'light',
      people: [{ user_id: 5003, profile_id: 9103, name: 'Priya Shah', status: 'already_member' }],
    });
    const members = await call(g, 'getSpaceMembers', { space_id: 2002 }, 'json');
    expect(members.body.success && (members.body.data as { members: unknown[] }).members.length).toBe(2);
  });

  it('declares deleteSpace and endSpaceMemberships destructive, deleteSpace as permanent', () => {
    const tool = (name: string) => allTools.find((t) => t.group === 'workspaces' && t.name === name)!;
    expect(tool('deleteSpace').annotations.kind).toBe('Destructive');
    expect(tool('deleteSpace').description).toContain('CANNOT be undone');
    expect(tool('deleteSpace').description).toContain('records');
    expect(tool('endSpaceMemberships').annotations.kind).toBe('Destructive');
    expect(allTools.filter((t) => t.group === 'workspaces').map((t) => t.name)).toEqual([
      'addMemberToSpace',
      'createSpace',
      'endSpaceMemberships',
      'getSpace',
      'getSpaceMembers',
      'updateSpace',
      'updateSpaceMemberships',
      'deleteSpace',
      'getOrganizations',
    ]);
  });
});
