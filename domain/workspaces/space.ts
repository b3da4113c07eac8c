import { forbidden, invalidInput, type GatewayError } from '../shared/errors.js';
import { isEmailAddress } from '../shared/email.js';
import { E, type Either } from '../shared/fp.js';

// Spaces (Podio workspaces), their members and invitations, and the organisations that hold them.

export const SPACE_ROLES = ['admin', 'regular', 'light'] as const;
export type SpaceRole = (typeof SPACE_ROLES)[number];

export const PRIVACIES = ['open', 'closed'] as const;
export type Privacy = (typeof PRIVACIES)[number];

export const MEMBER_TYPES = ['employee', 'external', 'admin', 'regular', 'light', 'guest'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export interface Space {
  readonly space_id: number;
  readonly name: string;
  readonly org_id: number;
  readonly url: string;
  readonly url_label: string;
  readonly privacy: Privacy;
  readonly type: string;
  readonly auto_join: boolean;
  readonly post_on_new_app: boolean;
  readonly post_on_new_member: boolean;
}

/** What getSpace adds with `verbose`. */
export interface SpaceDetails extends Space {
  readonly org_name?: string;
  readonly created_on?: string;
  readonly created_by?: { readonly user_id?: number; readonly name: string };
  /** The role of the user the gateway acts as. */
  readonly role?: SpaceRole;
  readonly rights?: readonly string[];
}

export interface MemberProfile {
  readonly profile_id: number;
  readonly user_id: number;
  readonly name: string;
  readonly mail: readonly string[];
  readonly type: string;
}

export interface SpaceMember {
  readonly role: SpaceRole;
  readonly employee: boolean;
  readonly is_partner: boolean;
  readonly grants: number;
  /** `invited` for a pending invitation that has not been accepted. */
  readonly status: 'active' | 'invited';
  readonly profile: MemberProfile;
}

export interface OrganisationSpace {
  readonly space_id: number;
  readonly name: string;
  readonly url: string;
  readonly privacy?: Privacy;
  readonly role?: SpaceRole;
}

export interface Organisation {
  readonly org_id: number;
  readonly name: string;
  readonly url: string;
  readonly url_label: string;
  /** Most members (active plus invited) a space may have, when known. */
  readonly user_limit?: number;
  readonly spaces: readonly OrganisationSpace[];
}

export interface NewSpace {
  readonly org_id: number;
  readonly name: string;
  readonly privacy: Privacy;
  readonly auto_join: boolean;
  readonly post_on_new_app: boolean;
  readonly post_on_new_member: boolean;
}

export interface CreatedSpace {
  readonly space_id: number;
  readonly url: string;
}

export interface SpaceChanges {
  readonly name?: string;
  readonly privacy?: Privacy;
  readonly auto_join?: boolean;
  readonly url_label?: string;
  readonly post_on_new_app?: boolean;
  readonly post_on_new_member?: boolean;
}

export interface Invitation {
  readonly role: SpaceRole;
  readonly users: readonly number[];
  readonly profiles: readonly number[];
  readonly mails: readonly string[];
  readonly message?: string;
  readonly external_contacts?: readonly Readonly<Record<string, unknown>>[];
}

/** One person named in an invitation and what became of them. `requested` when the backend does not say. */
export interface InvitationOutcome {
  readonly user_id?: number;
  readonly profile_id?: number;
  readonly mail?: string;
  readonly name?: string;
  readonly status: 'added' | 'invited' | 'already_member' | 'requested';
}

export interface MemberQuery {
  readonly member_type?: MemberType;
  readonly query?: string;
  readonly limit: number;
  readonly offset: number;
}

export interface MemberPage {
  readonly members: readonly SpaceMember[];
  /** All matching members, when the backend says; otherwise unknown. */
  readonly total?: number;
}

export const URL_LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A web-address label from a name: `Deal Flow 2026` -> `deal-flow-2026`. */
export const urlLabelFor = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'space';

export const validateNewSpace = (s: NewSpace): Either<GatewayError, NewSpace> =>
  s.name.trim() === ''
    ? E.left(invalidInput('The space needs a name.', 'name', 'non-empty string'))
    : E.right({ ...s, name: s.name.trim() });

export const validateSpaceChanges = (c: SpaceChanges): Either<GatewayError, SpaceChanges> => {
  const given = Object.entries(c).filter(([, v]) => v !== undefined);
  if (given.length === 0) {
    return E.left(
      invalidInput(
        'Nothing to change: give at least one of name, privacy, auto_join, url_label, post_on_new_app, post_on_new_member.',
        'name',
        'at least one value to change',
      ),
    );
  }
  if (c.name !== undefined && c.name.trim() === '')
    return E.left(invalidInput('A space name cannot be empty.', 'name', 'non-empty string'));
  if (c.url_label !== undefined && !URL_LABEL.test(c.url_label)) {
    return E.left(
      invalidInput(
        `"${c.url_label}" is not a usable url_label: use lower-case letters, digits and single hyphens, such as "${urlLabelFor(c.url_label)}".`,
        'url_label',
        'slug of a-z, 0-9 and hyphens',
      ),
    );
  }
  return E.right(Object.fromEntries(given.map(([k, v]) => [k, k === 'name' ? String(v).trim() : v])) as SpaceChanges);
};

export const validateInvitation = (i: Invitation): Either<GatewayError, Invitation> => {
  if (i.users.length + i.profiles.length + i.mails.length + (i.external_contacts?.length ?? 0) === 0) {
    return E.left(
      invalidInput(
        'Name at least one person to add: users (user ids), profiles (profile ids) or mails (email addresses).',
        'users',
        'array of user ids',
      ),
    );
  }
  const bad = i.mails.findIndex((m) => !isEmailAddress(m.trim()));
  if (bad >= 0)
    return E.left(invalidInput(`"${i.mails[bad]}" is not an email address.`, `mails[${bad}]`, 'email address'));
  return E.right({
    ...i,
    mails: [...new Set(i.mails.map((m) => m.trim().toLowerCase()))],
    users: [...new Set(i.users)],
    profiles: [...new Set(i.profiles)],
  });
};

export const matchesMemberType = (m: SpaceMember, type: MemberType | undefined): boolean => {
  switch (type) {
    case undefined:
      return true;
    case 'employee':
      return m.employee;
    case 'external':
      return !m.employee;
    case 'guest':
      return m.status === 'invited';
    default:
      return m.role === type;
  }
};

export const matchesName = (m: SpaceMember, query: string | undefined): boolean => {
  const q = query?.trim().toLowerCase();
  if (!q) return true;
  const name = m.profile.name.toLowerCase();
  return name.includes(q) || m.profile.mail.some((mail) => mail.toLowerCase().startsWith(q));
};

/** Members matching the query, in a stable order (admins first, then by name), one page of them. */
export const pageOfMembers = (members: readonly SpaceMember[], q: MemberQuery): MemberPage => {
  const rank: Record<SpaceRole, number> = { admin: 0, regular: 1, light: 2 };
  const matching = members
    .filter((m) => matchesMemberType(m, q.member_type) && matchesName(m, q.query))
    .sort(
      (a, b) =>
        rank[a.role] - rank[b.role] ||
        a.profile.name.localeCompare(b.profile.name) ||
        a.profile.user_id - b.profile.user_id,
    );
  return { members: matching.slice(q.offset, q.offset + q.limit), total: matching.length };
};

/** The space user limit: active members and pending invitations count; 403 once it would be passed. */
export const checkUserLimit = (
  space: { space_id: number; name: string },
  limit: number,
  count: number,
  adding: number,
): Either<GatewayError, void> =>
  count + adding <= limit
    ? E.right(undefined)
    : E.left(
        forbidden(
          `Space ${space.space_id} "${space.name}" has reached its user limit: ${count} of ${limit} places are taken (active members and pending invitations count), and adding ${adding} more would make ${count + adding}. End a membership or cancel a pending invitation with workspaces_endSpaceMemberships, or add fewer people.`,
          { user_limit: limit, member_count: count, requested: adding },
        ),
      );

/** The admins a space would have left after the change; a space must keep at least one. */
export const checkKeepsAnAdmin = (
  spaceId: number,
  adminIds: readonly number[],
  affected: readonly number[],
  newRole?: SpaceRole,
): Either<GatewayError, void> => {
  if (newRole === 'admin') return E.right(undefined);
  const gone = new Set(affected);
  const left = adminIds.filter((id) => !gone.has(id));
  if (adminIds.length === 0 || left.length > 0) return E.right(undefined);
  const what = newRole
    ? `make ${adminIds.length === 1 ? 'its only admin' : 'all its admins'} ${newRole}`
    : `end the membership of ${adminIds.length === 1 ? 'its only admin' : 'all its admins'}`;
  return E.left(
    invalidInput(
      `Space ${spaceId} must keep at least one admin, so the gateway will not ${what} (user ${adminIds.join(', ')}). Make another member admin first with workspaces_updateSpaceMemberships.`,
      'user_ids',
      'user ids that leave at least one admin',
      { admins: [...adminIds] },
    ),
  );
};
