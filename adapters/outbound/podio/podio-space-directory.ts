import * as t from 'io-ts';
import { forbidden, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type {
  CreatedSpace,
  Invitation,
  InvitationOutcome,
  MemberPage,
  MemberQuery,
  NewSpace,
  Organisation,
  SpaceChanges,
  SpaceDetails,
  SpaceRole,
} from '../../../domain/workspaces/space.js';
import type { SpaceDirectory } from '../../../ports/space-directory.js';
import type { PodioClient } from './podio-client.js';
import { PodioCreatedSpace, PodioMember, PodioOrg, PodioSpace } from './podio-space-codecs.js';
import { toMember, toOrganisation, toSpace } from './podio-space-mapping.js';

const done = <A, B>(r: Either<GatewayError, A>, f: (a: A) => B): Either<GatewayError, B> => E.map(f)(r);

/**
 * The SpaceDirectory on Podio's API: `/org/`, `/space/`, `/space/{id}/member/` (developers.podio.com/doc/organizations, /doc/spaces, /doc/space-members), over the
 * shared PodioClient (auth, error mapping). Podio enforces the space user limit itself (403).
 */
export class PodioSpaceDirectory implements SpaceDirectory {
  constructor(private readonly podio: PodioClient) {}

  organisations(): TaskEither<GatewayError, readonly Organisation[]> {
    return async () =>
      done(await this.podio.request('GET', '/org/', { codec: t.array(PodioOrg) }), (orgs) => orgs.map(toOrganisation));
  }

  createSpace(space: NewSpace): TaskEither<GatewayError, CreatedSpace> {
    return async () =>
      done(
        await this.podio.request('POST', '/space/', {
          body: {
            org_id: space.org_id,
            name: space.name,
            privacy: space.privacy,
            auto_join: space.auto_join,
            post_on_new_app: space.post_on_new_app,
            post_on_new_member: space.post_on_new_member,
          },
          codec: PodioCreatedSpace,
          resource: { kind: 'organization', id: space.org_id },
        }),
        (c) => ({ space_id: c.space_id, url: c.url ?? '' }),
      );
  }

  getSpace(spaceId: number): TaskEither<GatewayError, SpaceDetails> {
    return async () =>
      done(
        await this.podio.request('GET', `/space/${spaceId}`, {
          codec: PodioSpace,
          resource: { kind: 'space', id: spaceId },
        }),
        toSpace,
      );
  }

  updateSpace(spaceId: number, changes: SpaceChanges): TaskEither<GatewayError, void> {
    return async () =>
      done(
        await this.podio.request('PUT', `/space/${spaceId}`, {
          body: changes,
          codec: t.unknown,
          resource: { kind: 'space', id: spaceId },
        }),
        () => undefined,
      );
  }

  deleteSpace(spaceId: number): TaskEither<GatewayError, void> {
    return async () =>
      done(
        await this.podio.request('DELETE', `/space/${spaceId}`, {
          codec: t.unknown,
          resource: { kind: 'space', id: spaceId },
        }),
        () => undefined,
      );
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
        ...(invitation.external_contacts ?? []).map((c): InvitationOutcome => ({
          mail: String(c['mail'] ?? ''),
          status: 'requested',
        })),
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
      done(
        await this.podio.request('PUT', `/space/${spaceId}/member/${userIds.join(',')}`, {
          body: { role },
          codec: t.unknown,
          resource: { kind: 'space', id: spaceId },
        }),
        () => undefined,
      );
  }

  endMemberships(spaceId: number, userIds: readonly number[]): TaskEither<GatewayError, void> {
    return async () =>
      done(
        await this.podio.request('DELETE', `/space/${spaceId}/member/${userIds.join(',')}`, {
          codec: t.unknown,
          resource: { kind: 'space', id: spaceId },
        }),
        () => undefined,
      );
  }
}
