import * as t from 'io-ts';
import { destructive, nullable, resultObject, Truncated } from '../runtime/results.js';

// The workspaces tools' structured results: a space is the same object wherever it appears.

const Role = t.keyof({ admin: null, regular: null, light: null });
const Privacy = t.keyof({ open: null, closed: null });

export const OrganizationsResult = resultObject('Organizations', {
  organizations: t.array(
    resultObject(
      'Organization',
      {
        org_id: t.number,
        name: t.string,
        url: t.string,
        url_label: t.string,
        spaces: t.array(
          resultObject(
            'OrganizationSpace',
            { space_id: t.number, name: t.string, url: t.string },
            { privacy: Privacy, role: Role },
          ),
        ),
      },
      { user_limit: t.number },
    ),
  ),
});

export const SpaceResult = resultObject(
  'Space',
  {
    space_id: t.number,
    name: t.string,
    org_id: t.number,
    url: t.string,
    url_label: t.string,
    privacy: Privacy,
    type: t.string,
    auto_join: t.boolean,
    post_on_new_app: t.boolean,
    post_on_new_member: t.boolean,
  },
  {
    org_name: t.string,
    created_on: t.string,
    created_by: resultObject('SpaceCreator', { name: t.string }, { user_id: t.number }),
    role: Role,
    rights: t.array(t.string),
  },
);

export const CreatedSpaceResult = resultObject('CreatedSpace', {
  space_id: t.number,
  url: t.string,
  full_url: t.string,
});

export const UpdatedSpaceResult = resultObject('UpdatedSpace', { updated: t.literal(true), space_id: t.number });

/** A space member as the spec gives one: the membership, and the person as `profile`. */
export const MemberResult = resultObject('Member', {
  role: Role,
  employee: t.boolean,
  is_partner: t.boolean,
  grants: t.number,
  status: t.keyof({ active: null, invited: null }),
  profile: resultObject('MemberProfile', {
    profile_id: t.number,
    user_id: t.number,
    name: t.string,
    mail: t.array(t.string),
    type: t.string,
  }),
});

/** A page of members: `total` is null when the directory does not say how many there are. */
export const MembersResult = resultObject(
  'Members',
  { space_id: t.number, offset: t.number, total: nullable(t.number), members: t.array(MemberResult) },
  { truncated: Truncated },
);

export const MembersAddedResult = resultObject('MembersAdded', {
  space_id: t.number,
  role: Role,
  people: t.array(
    resultObject(
      'Invitation',
      { status: t.keyof({ added: null, invited: null, already_member: null, requested: null }) },
      { user_id: t.number, profile_id: t.number, mail: t.string, name: t.string },
    ),
  ),
});

/** updateSpaceMemberships and endSpaceMemberships answer `{status: "ok"}`, as the spec says. */
export const MembershipStatusResult = resultObject('MembershipStatus', { status: t.literal('ok') });

export const MembershipsEndedResult = destructive(MembershipStatusResult);

export const DeletedSpaceResult = destructive(
  resultObject('DeletedSpace', { deleted: t.literal(true), space_id: t.number }),
);
