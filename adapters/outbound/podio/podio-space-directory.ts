import * as t from 'io-ts';
import { forbidden, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import {
  PRIVACIES,
  SPACE_ROLES,
  type CreatedSpace,
  type Invitation,
  type InvitationOutcome,
  type MemberPage,
  type MemberQuery,
  type NewSpace,
  type Organisation,
  type Privacy,
  type SpaceChanges,
  type SpaceDetails,
  type SpaceMember,
  type SpaceRole,
} from '../../../domain/workspaces/space.js';
import type { SpaceDirectory } from '../../../ports/space-directory.js';
import { lenient } from '../http/vendor-codecs.js';
import type { PodioClient } from './podio-client.js';

// Podio's space, member and organisation answers as the gateway reads them. Fields the gateway does
// not depend on are lenient: a surprise there does not fail the call.

const Role = t.keyof(Object.fromEntries(SPACE_ROLES.map((r) => [r, null])) as Record<SpaceRole, null>);
const PrivacyCodec = t.keyof(Object.fromEntries(PRIVACIES.map((p) => [p, null])) as Record<Privacy, null>);

const PodioOrgSpace = t.intersection([
  t.type({ space_id: t.number, name: t.string }),
  t.partial({ url: lenient(t.string), url_label: lenient(t.string), privacy: lenient(PrivacyCodec), role: lenient(Role) }),
]);

const PodioOrg = t.intersection([
  t.type({ org_id: t.number, name: t.string }),
  t.partial({ url: lenient(t.string), url_label: lenient(t.string), user_limit: lenient(t.number), spaces: lenient(t.array(PodioOrgSpace)) }),
]);

const PodioCreatedSpace = t.intersection([t.type({ space_id: t.number }), t.partial({ url: lenient(t.string) })]);

const PodioSpace = t.intersection([
  t.type({ space_id: t.number, name: t.string }),
  t.partial({
    org_id: lenient(t.number),
    org: lenient(t.intersection([t.type({ org_id: t.number }), t.partial({ name: lenient(t.string), url: lenient(t.string) })])),
    url: lenient(t.string),
    url_label: lenient(t.string),
    privacy: lenient(PrivacyCodec),
    type: lenient(t.string),
    auto_join: lenient(t.boolean),
    post_on_new_app: lenient(t.boolean),
    post_on_new_member: lenient(t.boolean),
    created_on: lenient(t.string),
    created_by: lenient(t.intersection([t.type({ name: t.string }), t.partial({ id: lenient(t.number), user_id: lenient(t.number) })])),
    role: lenient(Role),
    rights: lenient(t.array(t.string)),
  }),
]);
type PodioSpace = t.TypeOf<typeof PodioSpace>;

const PodioMember = t.intersection([
  t.type({
    role: Role,
    profile: t.intersection([
      t.type({ profile_id: t.number, name: t.string }),
      t.partial({ user_id: lenient(t.number), mail: lenient(t.array(t.string)), type: lenient(t.string) }),
    ]),
  }),
  t.partial({
    user: lenient(t.partial({ user_id: lenient(t.number) })),
    employee: lenient(t.boolean),
    is_partner: lenient(t.boolean),
    grants: lenient(t.number),
    invited_on: lenient(t.union([t.string, t.null])),
    started_on: lenient(t.union([t.string, t.null])),
  }),
]);
type PodioMember = t.TypeOf<typeof PodioMember>;

const toMember = (m: PodioMember): SpaceMember => {
  const employee = m.employee ?? false;
  return {
    role: m.role,
    employee,
    is_partner: m.is_partner ?? !employee,
    grants: m.grants ?? 0,
    status: m.invited_on && !m.started_on ? 'invited' : 'active',
    profile: {
      profile_id: m.profile.profile_id,
      user_id: m.profile.user_id ?? m.user?.user_id ?? 0,
      name: m.profile.name,
      mail: m.profile.mail ?? [],
      type: m.profile.type ?? 'user',
    },
  };
};

const toSpace = (s: PodioSpace): SpaceDetails => ({
  space_id: s.space_id,
  name: s.name,
  org_id: s.org_id ?? s.org?.org_id ?? 0,
  url: s.url ?? '',
  url_label: s.url_label ?? '',
  privacy: s.privacy ?? 'closed',
  type: s.type ?? 'regular',
  auto_join: s.auto_join ?? false,
  post_on_new_app: s.post_on_new_app ?? false,
  post_on_new_member: s.post_on_new_member ?? false,
  ...(s.org?.name ? { org_name: s.org.name } : {}),
  ...(s.created_on ? { created_on: s.created_on } : {}),
  ...(s.created_by ? { created_by: { name: s.created_by.name, user_id: s.created_by.user_id ?? s.created_by.id } } : {}),
  ...(s.role ? { role: s.role } : {}),
  ...(s.rights ? { rights: s.rights } : {}),
});

const done = <A, B>(r: Either<GatewayError, A>, f: (a: A) => B): Either<GatewayError, B> => E.map(f)(r);

/**
 * The SpaceDirectory on Podio's API: `/org/`, `/space/`, `/space/{id}/member/` (vendors.md 2.2), over the
 * shared PodioClient (auth, error mapping). Podio enforces the space user limit itself (403).
 */
export class PodioSpaceDirectory implements SpaceDirectory {
  constructor(private readonly podio: PodioClient) {}

  organisations(): TaskEither<GatewayError, readonly Organisation[]> {
    return async () =>
      done(await this.podio.request('GET', '/org/', { codec: t.array(PodioOrg) }), (orgs) =>
        orgs.map((o) => ({
          org_id: o.org_id,
          name: o.name,
          url: o.url ?? '',
          url_label: o.url_label ?? '',
          ...(o.user_limit !== undefined ? { user_limit: o.user_limit } : {}),
          spaces: (o.spaces ?? []).map((s) => ({ space_id: s.space_id, name: s.name, url: s.url ?? '', ...(s.privacy ? { privacy: s.privacy } : {}), ...(s.role ? { role: s.role } : {}) })),
        })),
      );
  }

  createSpace(space: NewSpace): TaskEither<GatewayError, CreatedSpace> {
    return async () =>
      done(
        await this.podio.request('POST', '/space/', {
          body: { org_id: space.org_id, name: space.name, privacy: space.privacy, auto_join: space.auto_join, post_on_new_app: space.post_on_new_app, post_on_new_member: space.post_on_new_member },
          codec: PodioCreatedSpace,
          resource: { kind: 'organization', id: space.org_id },
        }),
        (c) => ({ space_id: c.space_id, url: c.url ?? '' }),
      );
  }

  getSpace(spaceId: number): TaskEither<GatewayError, SpaceDetails> {
    return async () => done(await this.podio.request('GET', `/space/${spaceId}`, { codec: PodioSpace, resource: { kind: 'space', id: spaceId } }), toSpace);
  }

  updateSpace(spaceId: number, changes: SpaceChanges): TaskEither<GatewayError, void> {
    return async () => done(await this.podio.request('PUT', `/space/${spaceId}`, { body: changes, codec: t.unknown, resource: { kind: 'space', id: spaceId } }), () => undefined);
  }

  deleteSpace(spaceId: number): TaskEither<GatewayError, void> {
    return async () => done(await this.podio.request('DELETE', `/space/${spaceId}`, { codec: t.unknown, resource: { kind: 'space', id: spaceId } }), () => undefined);
  }

  addMembers(spaceId: number, invitation: Invitation): TaskEither<GatewayError, readonly InvitationOutcome[]> {
    return async () => {
      const r = await this.podio.request('POST', `/space/${spaceId}/member/`, {
        body: {
          role: invitation.role,
          ...(invitation.message ? { message: invitation.message } : {}),
          ...(invitation.users.length ? { users: invitation.users } : {}),
          ...(invitation.profiles.length ? { profiles: invitation.profiles } : {}),
          ...(invitation.mails.length ? { mails: invitation.mails } : {}),
          ...(invitation.external_contacts?.length ? { external_contacts: invitation.external_contacts } : {}),
        },
        codec: t.unknown,
        resource: { kind: 'space', id: spaceId },
      });
      if (E.isLeft(r)) {
        const e = r.left;
        return e._tag === 'Forbidden'
          ? E.left(
              forbidden(
                `${e.message} Adding people to space ${spaceId} was refused; when the space's user limit is reached, end a membership or cancel a pending invitation with workspaces_endSpaceMemberships first, or add fewer people.`,
                e.details,
              ),
            )
          : r;
      }
      return E.right([
        ...invitation.users.map((user_id): InvitationOutcome => ({ user_id, status: 'requested' })),
        ...invitation.profiles.map((profile_id): InvitationOutcome => ({ profile_id, status: 'requested' })),
        ...invitation.mails.map((mail): InvitationOutcome => ({ mail, status: 'requested' })),
        ...(invitation.external_contacts ?? []).map((c): InvitationOutcome => ({ mail: String(c['mail'] ?? ''), status: 'requested' })),
      ]);
    };
  }

  members(spaceId: number, query: MemberQuery): TaskEither<GatewayError, MemberPage> {
    return async () =>
      done(
        await this.podio.request('GET', `/space/${spaceId}/member/v2/`, {
          query: { member_type: query.member_type, query: query.query, limit: query.limit, offset: query.offset },
          codec: t.array(PodioMember),
          resource: { kind: 'space', id: spaceId },
        }),
        (members) => ({ members: members.map(toMember) }),
      );
  }

  updateRoles(spaceId: number, userIds: readonly number[], role: SpaceRole): TaskEither<GatewayError, void> {
    return async () =>
      done(await this.podio.request('PUT', `/space/${spaceId}/member/${userIds.join(',')}`, { body: { role }, codec: t.unknown, resource: { kind: 'space', id: spaceId } }), () => undefined);
  }

  endMemberships(spaceId: number, userIds: readonly number[]): TaskEither<GatewayError, void> {
    return async () =>
      done(await this.podio.request('DELETE', `/space/${spaceId}/member/${userIds.join(',')}`, { codec: t.unknown, resource: { kind: 'space', id: spaceId } }), () => undefined);
  }
}
