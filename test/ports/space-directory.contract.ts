import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceMember } from '../../domain/workspaces/space.js';
import type { SpaceDirectory } from '../../ports/space-directory.js';
import { err, ok } from '../support/run.js';

export interface SpaceDirectoryUnderTest {
  readonly directory: SpaceDirectory;
  readonly close: () => Promise<void>;
}

// Every SpaceDirectory behaves this way, over the demo account (organisations 1001 "Acme Realty Group",
// space user limit 8, and 1002; space 2001 "Acquisitions" with five members; users 5001-5006 with
// profiles 9101-9106; the acting user 5001).
export const spaceDirectoryContract = (name: string, setUp: () => Promise<SpaceDirectoryUnderTest>) =>
  describe(`SpaceDirectory contract: ${name}`, () => {
    let sut: SpaceDirectoryUnderTest;
    let d: SpaceDirectory;
    beforeAll(async () => {
      sut = await setUp();
      d = sut.directory;
    });
    afterAll(async () => {
      await sut.close();
    });

    const ids = (members: readonly SpaceMember[]) => members.map((m) => m.profile.user_id).sort((a, b) => a - b);
    const all = (spaceId: number) => ok(d.members(spaceId, { limit: 100, offset: 0 }));
    const newSpace = async (name: string) =>
      (
        await ok(
          d.createSpace({
            org_id: 1001,
            name,
            privacy: 'closed',
            auto_join: false,
            post_on_new_app: true,
            post_on_new_member: false,
          }),
        )
      ).space_id;

    it('lists organisations with their spaces', async () => {
      const orgs = await ok(d.organisations());
      const acme = orgs.find((o) => o.org_id === 1001);
      expect(acme).toMatchObject({ name: 'Acme Realty Group', url_label: 'acme-realty-group' });
      expect(acme!.spaces).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ space_id: 2001, name: 'Acquisitions', privacy: 'closed', role: 'admin' }),
        ]),
      );
      expect(orgs.find((o) => o.org_id === 1002)?.spaces.map((s) => s.space_id)).toEqual([2003]);
    });

    it('creates a space with the given settings, the creator its admin', async () => {
      const created = await ok(
        d.createSpace({
          org_id: 1001,
          name: 'Contract Room',
          privacy: 'open',
          auto_join: true,
          post_on_new_app: false,
          post_on_new_member: true,
        }),
      );
      expect(created.url).toContain('contract-room');
      const s = await ok(d.getSpace(created.space_id));
      expect(s).toMatchObject({
        space_id: created.space_id,
        name: 'Contract Room',
        org_id: 1001,
        privacy: 'open',
        auto_join: true,
        post_on_new_app: false,
        post_on_new_member: true,
        type: 'regular',
        url_label: 'contract-room',
        role: 'admin',
      });
      expect(s.created_by?.user_id).toBe(5001);
      const members = (await all(created.space_id)).members;
      expect(members.map((m) => [m.profile.user_id, m.role, m.status])).toEqual([[5001, 'admin', 'active']]);
    });

    it('refuses an unknown organisation and reports unknown spaces as not found', async () => {
      expect(
        await err(
          d.createSpace({
            org_id: 9999,
            name: 'X',
            privacy: 'closed',
            auto_join: false,
            post_on_new_app: true,
            post_on_new_member: true,
          }),
        ),
      ).toMatchObject({ _tag: 'NotFound' });
      for (const e of [
        await err(d.getSpace(987654)),
        await err(d.members(987654, { limit: 10, offset: 0 })),
        await err(d.deleteSpace(987654)),
      ]) {
        expect(e).toMatchObject({ _tag: 'NotFound', id: '987654' });
      }
    });

    it('updates only the given values', async () => {
      const id = await newSpace('Before Update');
      await ok(d.updateSpace(id, { name: 'After Update', url_label: 'after-update' }));
      const s = await ok(d.getSpace(id));
      expect(s).toMatchObject({
        name: 'After Update',
        url_label: 'after-update',
        privacy: 'closed',
        auto_join: false,
        post_on_new_app: true,
        post_on_new_member: false,
      });
      await ok(d.updateSpace(id, { privacy: 'open' }));
      expect(await ok(d.getSpace(id))).toMatchObject({ name: 'After Update', privacy: 'open' });
    });

    it('reads members with both ids, roles and employee flags', async () => {
      const page = await all(2001);
      expect(ids(page.members)).toEqual([5001, 5002, 5003, 5004, 5006]);
      const omar = page.members.find((m) => m.profile.user_id === 5006)!;
      expect(omar).toMatchObject({
        role: 'light',
        employee: false,
        status: 'active',
        profile: { profile_id: 9106, name: 'Omar Haddad', mail: ['omar@haddad-partners.example'] },
      });
      expect(page.members.find((m) => m.profile.user_id === 5001)).toMatchObject({
        role: 'admin',
        employee: true,
        profile: { profile_id: 9101 },
      });
    });

    it('filters members by type and name, and pages them', async () => {
      expect(ids((await ok(d.members(2001, { member_type: 'regular', limit: 100, offset: 0 }))).members)).toEqual([
        5002, 5003,
      ]);
      expect(ids((await ok(d.members(2001, { member_type: 'external', limit: 100, offset: 0 }))).members)).toEqual([
        5006,
      ]);
      expect(ids((await ok(d.members(2001, { member_type: 'employee', limit: 100, offset: 0 }))).members)).toEqual([
        5001, 5002, 5003, 5004,
      ]);
      expect(ids((await ok(d.members(2001, { query: 'priya', limit: 100, offset: 0 }))).members)).toEqual([5003]);
      const first = await ok(d.members(2001, { limit: 2, offset: 0 }));
      const second = await ok(d.members(2001, { limit: 2, offset: 2 }));
      const third = await ok(d.members(2001, { limit: 2, offset: 4 }));
      expect(first.members).toHaveLength(2);
      expect(ids([...first.members, ...second.members, ...third.members])).toEqual([5001, 5002, 5003, 5004, 5006]);
    });

    it('adds members by user id, profile id and email; an unknown address is a pending invitation', async () => {
      const id = await newSpace('Invitations');
      await ok(d.addMembers(id, { role: 'regular', users: [5002], profiles: [], mails: [] }));
      await ok(d.addMembers(id, { role: 'light', users: [], profiles: [9104], mails: [] }));
      await ok(
        d.addMembers(id, {
          role: 'regular',
          users: [],
          profiles: [],
          mails: ['someone.new@elsewhere.example'],
          message: 'Join us',
        }),
      );
      const members = (await all(id)).members;
      expect(members.find((m) => m.profile.user_id === 5002)).toMatchObject({
        role: 'regular',
        status: 'active',
        profile: { profile_id: 9102 },
      });
      expect(members.find((m) => m.profile.user_id === 5004)).toMatchObject({ role: 'light', status: 'active' });
      const invited = members.find((m) => m.profile.mail.includes('someone.new@elsewhere.example'));
      expect(invited).toMatchObject({ role: 'regular', status: 'invited', employee: false });
      expect(invited!.profile.user_id).toBeGreaterThan(0);
      expect(invited!.profile.profile_id).not.toBe(invited!.profile.user_id);
      expect(ids((await ok(d.members(id, { member_type: 'guest', limit: 100, offset: 0 }))).members)).toEqual([
        invited!.profile.user_id,
      ]);
    });

    it('enforces the space user limit with a Forbidden naming the limit and the count', async () => {
      const id = await newSpace('Crowded');
      await ok(
        d.addMembers(id, {
          role: 'light',
          users: [5002, 5003, 5004],
          profiles: [],
          mails: ['one@x.example', 'two@x.example'],
        }),
      );
      const e = await err(
        d.addMembers(id, {
          role: 'light',
          users: [],
          profiles: [],
          mails: ['three@x.example', 'four@x.example', 'five@x.example'],
        }),
      );
      expect(e._tag).toBe('Forbidden');
      expect(e.message).toContain('6 of 8');
      expect(e.message).toContain('user limit');
      expect((await all(id)).members).toHaveLength(6);
      await ok(
        d.addMembers(id, { role: 'light', users: [], profiles: [], mails: ['three@x.example', 'four@x.example'] }),
      );
      expect((await all(id)).members).toHaveLength(8);
    });

    it('changes roles, but never the last admin away', async () => {
      const id = await newSpace('Roles');
      await ok(d.addMembers(id, { role: 'regular', users: [5002, 5003], profiles: [], mails: [] }));
      await ok(d.updateRoles(id, [5002, 5003], 'light'));
      expect(ids((await ok(d.members(id, { member_type: 'light', limit: 100, offset: 0 }))).members)).toEqual([
        5002, 5003,
      ]);
      expect(await err(d.updateRoles(id, [5001], 'regular'))).toMatchObject({ _tag: 'InvalidInput' });
      await ok(d.updateRoles(id, [5003], 'admin'));
      await ok(d.updateRoles(id, [5001], 'regular'));
      expect(ids((await ok(d.members(id, { member_type: 'admin', limit: 100, offset: 0 }))).members)).toEqual([5003]);
    });

    it('ends active memberships and cancels pending invitations alike', async () => {
      const id = await newSpace('Leaving');
      await ok(d.addMembers(id, { role: 'regular', users: [5002], profiles: [], mails: ['pending.person@x.example'] }));
      const invited = (await all(id)).members.find((m) => m.status === 'invited')!;
      await ok(d.endMemberships(id, [5002, invited.profile.user_id]));
      expect(ids((await all(id)).members)).toEqual([5001]);
      expect(await err(d.endMemberships(id, [5001]))).toMatchObject({ _tag: 'InvalidInput' });
      expect(await err(d.endMemberships(id, [5005]))).toMatchObject({ _tag: 'NotFound' });
    });

    it('deletes a space for good', async () => {
      const id = await newSpace('Short Lived');
      await ok(d.deleteSpace(id));
      expect(await err(d.getSpace(id))).toMatchObject({ _tag: 'NotFound' });
      expect(await err(d.deleteSpace(id))).toMatchObject({ _tag: 'NotFound' });
      const orgs = await ok(d.organisations());
      expect(orgs.flatMap((o) => o.spaces.map((s) => s.space_id))).not.toContain(id);
    });
  });
