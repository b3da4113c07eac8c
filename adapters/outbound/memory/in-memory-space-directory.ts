import { conflict, invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import {
  checkKeepsAnAdmin,
  checkUserLimit,
  pageOfMembers,
  urlLabelFor,
  type CreatedSpace,
  type Invitation,
  type InvitationOutcome,
  type MemberPage,
  type MemberQuery,
  type NewSpace,
  type Organisation,
  type SpaceChanges,
  type SpaceDetails,
  type SpaceMember,
  type SpaceRole,
} from '../../../domain/workspaces/space.js';
import type { Clock } from '../../../ports/clock.js';
import type { SpaceDirectory } from '../../../ports/space-directory.js';
import type { AccountMembership, AccountSpace, InMemoryPodioAccount } from './in-memory-podio-account.js';
import { DEFAULT_DEMO_LIMITS, roomFor } from './demo-limits.js';

const WEB = 'https://podio.com';

/** Podio's timestamp form, `YYYY-MM-DD HH:MM:SS` (UTC). */
const podioTime = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Spaces, members and invitations on the shared in-memory Podio account, behaving as Podio does:
 * the creator is a space's first admin, a space user limit per organisation (active members and
 * pending invitations count), an email of someone unknown becomes a pending invitation, and a deleted
 * space takes its apps and records along (the account tells the records group).
 */
export class InMemorySpaceDirectory implements SpaceDirectory {
  constructor(
    private readonly account: InMemoryPodioAccount,
    private readonly clock: Clock,
    private readonly maxSpaces: number = DEFAULT_DEMO_LIMITS.spaces,
  ) {}

  organisations(): TaskEither<GatewayError, readonly Organisation[]> {
    return async () =>
      E.right(
        [...this.account.organisations.values()].map((o) => ({
          org_id: o.org_id,
          name: o.name,
          url: `${WEB}/${o.url_label}`,
          url_label: o.url_label,
          user_limit: o.user_limit,
          spaces: [...this.account.spaces.values()]
            .filter((s) => s.org_id === o.org_id)
            .map((s) => {
              const role = s.members.find(
                (m) => m.user_id === this.account.actingUserId && m.status === 'active',
              )?.role;
              return {
                space_id: s.space_id,
                name: s.name,
                url: this.#url(s),
                privacy: s.privacy,
                ...(role ? { role } : {}),
              };
            }),
        })),
      );
  }

  createSpace(space: NewSpace): TaskEither<GatewayError, CreatedSpace> {
    return async () => {
      const org = this.account.organisations.get(space.org_id);
      if (!org)
        return E.left(
          notFound(
            'organization',
            String(space.org_id),
            `There is no organization ${space.org_id}. workspaces_getOrganizations lists the organizations and their org_id.`,
          ),
        );
      const room = roomFor('spaces', this.account.spaces.size, this.maxSpaces);
      if (E.isLeft(room)) return room;
      const created: AccountSpace = {
        space_id: this.account.newSpaceId(),
        org_id: org.org_id,
        name: space.name,
        url_label: this.#freeLabel(org.org_id, urlLabelFor(space.name)),
        privacy: space.privacy,
        type: 'regular',
        auto_join: space.auto_join,
        post_on_new_app: space.post_on_new_app,
        post_on_new_member: space.post_on_new_member,
        created_on: podioTime(this.clock.now()),
        created_by: this.account.actingUserId,
        members: [
          {
            user_id: this.account.actingUserId,
            role: 'admin',
            employee: true,
            status: 'active',
            is_partner: false,
            grants: 0,
          },
        ],
      };
      this.account.putSpace(created);
      return E.right({ space_id: created.space_id, url: this.#url(created) });
    };
  }

  getSpace(spaceId: number): TaskEither<GatewayError, SpaceDetails> {
    return async () =>
      E.map((s: AccountSpace): SpaceDetails => {
        const me = s.members.find((m) => m.user_id === this.account.actingUserId && m.status === 'active');
        const creator = this.account.user(s.created_by);
        return {
          space_id: s.space_id,
          name: s.name,
          org_id: s.org_id,
          url: this.#url(s),
          url_label: s.url_label,
          privacy: s.privacy,
          type: s.type,
          auto_join: s.auto_join,
          post_on_new_app: s.post_on_new_app,
          post_on_new_member: s.post_on_new_member,
          org_name: this.account.organisations.get(s.org_id)?.name,
          created_on: s.created_on,
          ...(creator ? { created_by: { user_id: creator.user_id, name: creator.name } } : {}),
          ...(me
            ? {
                role: me.role,
                rights:
                  me.role === 'admin'
                    ? ['view', 'update', 'delete', 'add_member', 'add_app']
                    : me.role === 'regular'
                      ? ['view', 'add_app']
                      : ['view'],
              }
            : {}),
        };
      })(this.#space(spaceId));
  }

  updateSpace(spaceId: number, changes: SpaceChanges): TaskEither<GatewayError, void> {
    return async () => {
      const found = this.#space(spaceId);
      if (E.isLeft(found)) return found;
      const s = found.right;
      if (changes.url_label !== undefined && changes.url_label !== s.url_label) {
        const clash = [...this.account.spaces.values()].find(
          (o) => o.org_id === s.org_id && o.url_label === changes.url_label,
        );
        if (clash)
          return E.left(
            conflict(
              `The url_label "${changes.url_label}" is taken by space ${clash.space_id} "${clash.name}" in the same organization. Choose another.`,
              { existing_id: clash.space_id },
            ),
          );
      }
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      this.account.putSpace({ ...s, ...defined });
      return E.right(undefined);
    };
  }

  deleteSpace(spaceId: number): TaskEither<GatewayError, void> {
    return async () => {
      const found = this.#space(spaceId);
      if (E.isLeft(found)) return found;
      this.account.removeSpace(spaceId);
      return E.right(undefined);
    };
  }

  addMembers(spaceId: number, invitation: Invitation): TaskEither<GatewayError, readonly InvitationOutcome[]> {
    return async () => {
      const found = this.#space(spaceId);
      if (E.isLeft(found)) return found;
      const space = found.right;
      const people: { user_id?: number; mail?: string; name?: string; via: string }[] = [];
      for (const id of invitation.users) {
        const u = this.account.user(id);
        if (!u)
          return E.left(
            notFound(
              'user',
              String(id),
              `There is no user ${id}. workspaces_getSpaceMembers shows user ids of people in other spaces; an email address in "mails" invites someone new.`,
            ),
          );
        people.push({ user_id: u.user_id, via: 'users' });
      }
      for (const id of invitation.profiles) {
        const u = this.account.userByProfileId(id);
        if (!u)
          return E.left(
            notFound(
              'profile',
              String(id),
              `There is no profile ${id}. Profile ids are the profile_id column of workspaces_getSpaceMembers; an email address in "mails" invites someone new.`,
            ),
          );
        people.push({ user_id: u.user_id, via: 'profiles' });
      }
      for (const mail of invitation.mails) {
        const u = this.account.userByMail(mail);
        people.push(u ? { user_id: u.user_id, mail, via: 'mails' } : { mail, via: 'mails' });
      }
      for (const [i, c] of (invitation.external_contacts ?? []).entries()) {
        const mail =
          typeof c['mail'] === 'string'
            ? c['mail']
            : Array.isArray(c['mail']) && typeof c['mail'][0] === 'string'
              ? c['mail'][0]
              : undefined;
        if (!mail)
          return E.left(
            invalidInput(
              'Each external contact needs a "mail" (an email address) so that an invitation can be sent.',
              `external_contacts[${i}].mail`,
              'email address',
            ),
          );
        const u = this.account.userByMail(mail);
        people.push(
          u
            ? { user_id: u.user_id, mail, via: 'external_contacts' }
            : { mail, name: typeof c['name'] === 'string' ? c['name'] : undefined, via: 'external_contacts' },
        );
      }

      const seen = new Set<string>();
      const outcomes: InvitationOutcome[] = [];
      const fresh: typeof people = [];
      for (const p of people) {
        const key = p.user_id !== undefined ? `u${p.user_id}` : `m${p.mail}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const existing = p.user_id !== undefined ? space.members.find((m) => m.user_id === p.user_id) : undefined;
        if (existing) {
          const u = this.account.user(existing.user_id)!;
          outcomes.push({ user_id: u.user_id, profile_id: u.profile_id, name: u.name, status: 'already_member' });
        } else fresh.push(p);
      }
      const org = this.account.organisations.get(space.org_id);
      if (org) {
        const limit = checkUserLimit(space, org.user_limit, space.members.length, fresh.length);
        if (E.isLeft(limit)) return limit;
      }
      const now = podioTime(this.clock.now());
      const added: AccountMembership[] = [];
      for (const p of fresh) {
        const user = p.user_id !== undefined ? this.account.user(p.user_id)! : this.account.addUser(p.mail!, p.name);
        const pending = p.user_id === undefined;
        const employee = !pending && this.#isEmployee(user.user_id, space.org_id);
        added.push({
          user_id: user.user_id,
          role: invitation.role,
          employee,
          status: pending ? 'invited' : 'active',
          is_partner: !employee,
          grants: 0,
          ...(pending ? { invited_on: now } : {}),
        });
        outcomes.push({
          user_id: user.user_id,
          profile_id: user.profile_id,
          name: user.name,
          ...(p.mail ? { mail: p.mail } : {}),
          status: pending ? 'invited' : 'added',
        });
      }
      this.account.putSpace({ ...space, members: [...space.members, ...added] });
      return E.right(outcomes);
    };
  }

  members(spaceId: number, query: MemberQuery): TaskEither<GatewayError, MemberPage> {
    return async () =>
      E.map((s: AccountSpace) =>
        pageOfMembers(
          s.members.map((m) => this.#member(m)),
          query,
        ),
      )(this.#space(spaceId));
  }

  updateRoles(spaceId: number, userIds: readonly number[], role: SpaceRole): TaskEither<GatewayError, void> {
    return async () => {
      const checked = this.#membersOf(spaceId, userIds, role);
      if (E.isLeft(checked)) return checked;
      const space = checked.right;
      const ids = new Set(userIds);
      this.account.putSpace({ ...space, members: space.members.map((m) => (ids.has(m.user_id) ? { ...m, role } : m)) });
      return E.right(undefined);
    };
  }

  endMemberships(spaceId: number, userIds: readonly number[]): TaskEither<GatewayError, void> {
    return async () => {
      const checked = this.#membersOf(spaceId, userIds, undefined);
      if (E.isLeft(checked)) return checked;
      const space = checked.right;
      const ids = new Set(userIds);
      this.account.putSpace({ ...space, members: space.members.filter((m) => !ids.has(m.user_id)) });
      return E.right(undefined);
    };
  }

  #membersOf(
    spaceId: number,
    userIds: readonly number[],
    newRole: SpaceRole | undefined,
  ): Either<GatewayError, AccountSpace> {
    const found = this.#space(spaceId);
    if (E.isLeft(found)) return found;
    const space = found.right;
    const missing = userIds.filter((id) => !space.members.some((m) => m.user_id === id));
    if (missing.length) {
      return E.left(
        notFound(
          'member',
          missing.join(','),
          `User ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} neither a member of space ${spaceId} nor invited to it. workspaces_getSpaceMembers lists the user ids.`,
        ),
      );
    }
    const admins = space.members.filter((m) => m.role === 'admin' && m.status === 'active').map((m) => m.user_id);
    return E.map(() => space)(checkKeepsAnAdmin(spaceId, admins, userIds, newRole));
  }

  #space(spaceId: number): Either<GatewayError, AccountSpace> {
    const s = this.account.space(spaceId);
    return s
      ? E.right(s)
      : E.left(
          notFound(
            'space',
            String(spaceId),
            `There is no space ${spaceId} (it may have been deleted). workspaces_getOrganizations lists every space with its space_id.`,
          ),
        );
  }

  #member(m: AccountMembership): SpaceMember {
    const u = this.account.user(m.user_id);
    return {
      role: m.role,
      employee: m.employee,
      is_partner: m.is_partner,
      grants: m.grants,
      status: m.status,
      profile: {
        profile_id: u?.profile_id ?? 0,
        user_id: m.user_id,
        name: u?.name ?? `user ${m.user_id}`,
        mail: u ? [u.mail] : [],
        type: 'user',
      },
    };
  }

  #isEmployee(userId: number, orgId: number): boolean {
    for (const s of this.account.spaces.values())
      if (s.org_id === orgId && s.members.some((m) => m.user_id === userId && m.employee)) return true;
    return false;
  }

  #freeLabel(orgId: number, wanted: string): string {
    const taken = new Set([...this.account.spaces.values()].filter((s) => s.org_id === orgId).map((s) => s.url_label));
    if (!taken.has(wanted)) return wanted;
    for (let i = 2; ; i++) if (!taken.has(`${wanted}-${i}`)) return `${wanted}-${i}`;
  }

  #url(s: { org_id: number; url_label: string }): string {
    return `${WEB}/${this.account.organisations.get(s.org_id)?.url_label ?? s.org_id}/${s.url_label}`;
  }
}
