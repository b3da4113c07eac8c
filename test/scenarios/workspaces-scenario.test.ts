import { describe, expect, it } from 'vitest';
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryPodioAccountToken } from '../../composition/podio-account.js';
import { post, testGateway } from '../support/gateway.js';

const W = '/v1/tools/workspaces';

describe('workspaces over HTTP in memory mode: a space from creation to deletion', () => {
  const account = InMemoryPodioAccount.withDemoData();
  // stands in for the records group: the apps and records that live in each space
  const appsBySpace = new Map<number, string[]>();
  account.onSpaceDeleted((spaceId) => appsBySpace.delete(spaceId));
  const gateway = testGateway({ ports: [[InMemoryPodioAccountToken, account]] });

  it('walks through organisations, members, invitations, the user limit, roles and deletion', async () => {
    const orgs = await post(gateway, `${W}/getOrganizations?format=json`);
    expect(orgs.status).toBe(200);
    const acme = orgs.body.data.organizations.find((o: { name: string }) => o.name === 'Acme Realty Group');
    expect(acme).toMatchObject({ org_id: 1001, user_limit: 8 });
    expect(acme.spaces.map((s: { space_id: number }) => s.space_id)).toContain(2001);
    const orgText = await post(gateway, `${W}/getOrganizations`);
    expect(orgText.body.data).toContain('### Acme Realty Group (org_id 1001)');

    const created = await post(gateway, `${W}/createSpace?format=json`, { org_id: acme.org_id, name: 'Deal Room' });
    expect(created.status).toBe(200);
    const spaceId: number = created.body.data.space_id;
    expect(created.body.data).toEqual({
      space_id: spaceId,
      url: 'https://podio.com/acme-realty-group/deal-room',
      full_url: 'https://podio.com/acme-realty-group/deal-room',
    });
    appsBySpace.set(spaceId, ['Leads', 'Offers']);

    const space = await post(gateway, `${W}/getSpace?format=json`, { space_id: String(spaceId) });
    expect(space.body.data).toMatchObject({
      space_id: spaceId,
      name: 'Deal Room',
      org_id: 1001,
      privacy: 'closed',
      type: 'regular',
      auto_join: false,
    });

    const byUser = await post(gateway, `${W}/addMemberToSpace?format=json`, {
      space_id: spaceId,
      role: 'regular',
      users: [5002],
    });
    expect(byUser.body.data.people).toEqual([{ user_id: 5002, profile_id: 9102, name: 'James Chen', status: 'added' }]);
    const byProfile = await post(gateway, `${W}/addMemberToSpace?format=json`, {
      space_id: spaceId,
      role: 'light',
      profiles: [9103],
    });
    expect(byProfile.body.data.people).toEqual([
      { user_id: 5003, profile_id: 9103, name: 'Priya Shah', status: 'added' },
    ]);
    const byMail = await post(gateway, `${W}/addMemberToSpace`, {
      space_id: spaceId,
      role: 'regular',
      mails: ['New.Partner@Outside.example'],
      message: 'Welcome aboard',
    });
    expect(byMail.status).toBe(200);
    expect(byMail.body.data).toContain('invited (pending)');
    const invitedId = account.userByMail('new.partner@outside.example')!.user_id;

    const tooMany = await post(gateway, `${W}/addMemberToSpace`, {
      space_id: spaceId,
      role: 'light',
      mails: ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example', 'e@x.example'],
    });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body.error.code).toBe('FORBIDDEN');
    expect(tooMany.body.error.message).toContain('4 of 8');
    expect(tooMany.body.error.message).toContain('workspaces_endSpaceMemberships');

    const members = await post(gateway, `${W}/getSpaceMembers`, { space_id: spaceId });
    const text: string = members.body.data;
    expect(text).toContain(`## Members of space ${spaceId}`);
    expect(text).toContain('Showing 1-4 of 4.');
    expect(text).toContain('| user_id | profile_id | name | role | member | status | mail |');
    expect(text).toContain('| 5001 | 9101 | Maria Gonzalez | admin | employee | active |');
    expect(text).toContain('| 5003 | 9103 | Priya Shah | light | employee | active |');
    expect(text).toMatch(
      new RegExp(
        `\\| ${invitedId} \\| \\d+ \\| new.partner@outside.example \\| regular \\| external \\| invited \\(pending\\) \\|`,
      ),
    );

    const lastAdmin = await post(gateway, `${W}/updateSpaceMemberships`, {
      space_id: spaceId,
      user_ids: [5001],
      role: 'regular',
    });
    expect(lastAdmin.status).toBe(400);
    expect(lastAdmin.body.error.message).toContain('must keep at least one admin');

    const promoted = await post(gateway, `${W}/updateSpaceMemberships?format=json`, {
      space_id: spaceId,
      user_ids: [5002],
      role: 'admin',
    });
    expect(promoted.body).toEqual({ success: true, data: { status: 'ok' } });
    const admins = await post(gateway, `${W}/getSpaceMembers?format=json`, { space_id: spaceId, member_type: 'admin' });
    expect(admins.body.data.members.map((m: { profile: { user_id: number } }) => m.profile.user_id).sort()).toEqual([
      5001, 5002,
    ]);

    const ended = await post(gateway, `${W}/endSpaceMemberships?format=json`, {
      space_id: spaceId,
      user_ids: [5003, invitedId],
    });
    expect(ended.body).toEqual({ success: true, data: { status: 'ok' } });
    const left = await post(gateway, `${W}/getSpaceMembers?format=json`, { space_id: spaceId });
    // admins first, then by name: the ended member and the cancelled invitation are gone
    expect(
      left.body.data.members.map((m: { profile: { user_id: number }; role: string; status: string }) => [
        m.profile.user_id,
        m.role,
        m.status,
      ]),
    ).toEqual([
      [5002, 'admin', 'active'],
      [5001, 'admin', 'active'],
    ]);

    const deleted = await post(gateway, `${W}/deleteSpace?format=json`, { space_id: spaceId });
    expect(deleted.body).toEqual({ success: true, data: { deleted: true, space_id: spaceId } });
    expect(appsBySpace.has(spaceId)).toBe(false);
    const gone = await post(gateway, `${W}/getSpace`, { space_id: spaceId });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain('workspaces_getOrganizations');
    const orgsAfter = await post(gateway, `${W}/getOrganizations?format=json`);
    expect(orgsAfter.body.data.organizations[0].spaces.map((s: { space_id: number }) => s.space_id)).not.toContain(
      spaceId,
    );
  });
});

describe('deleteSpace and the records group (in memory)', () => {
  it("removes the space's apps and their records", async () => {
    const gateway = testGateway();
    const before = await post(gateway, '/v1/tools/records/listApps?format=json', { workspace_id: 2001 });
    expect(before.status).toBe(200);
    const apps: { id?: number; app_id?: number }[] = before.body.data.apps;
    expect(apps.length).toBeGreaterThan(0);
    const appId = apps[0]!.id ?? apps[0]!.app_id;
    const records = await post(gateway, '/v1/tools/records/listRecords?format=json', { app_id: appId });
    expect(records.status).toBe(200);

    const deleted = await post(gateway, `${W}/deleteSpace`, { space_id: 2001 });
    expect(deleted.status).toBe(200);

    const after = await post(gateway, '/v1/tools/records/listApps?format=json', { workspace_id: 2001 });
    expect(after.status === 404 || (after.body.success && after.body.data.apps.length === 0)).toBe(true);
    const everywhere = await post(gateway, '/v1/tools/records/listApps?format=json', {});
    expect(everywhere.body.data.apps.map((a: { id?: number; app_id?: number }) => a.id ?? a.app_id)).not.toContain(
      appId,
    );
    const recordsAfter = await post(gateway, '/v1/tools/records/listRecords?format=json', { app_id: appId });
    expect(recordsAfter.status).toBe(404);
  });
});
