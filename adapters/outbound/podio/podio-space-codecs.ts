import * as t from 'io-ts';
import { PRIVACIES, SPACE_ROLES, type Privacy, type SpaceRole } from '../../../domain/workspaces/space.js';
import { lenient } from '../http/vendor-codecs.js';

// Podio's space, member and organisation answers as the gateway reads them. Fields the gateway does
// not depend on are lenient: a surprise there does not fail the call.

const Role = t.keyof(Object.fromEntries(SPACE_ROLES.map((r) => [r, null])) as Record<SpaceRole, null>);
const PrivacyCodec = t.keyof(Object.fromEntries(PRIVACIES.map((p) => [p, null])) as Record<Privacy, null>);

const PodioOrgSpace = t.intersection([
  t.type({ space_id: t.number, name: t.string }),
  t.partial({
    url: lenient(t.string),
    url_label: lenient(t.string),
    privacy: lenient(PrivacyCodec),
    role: lenient(Role),
  }),
]);

export const PodioOrg = t.intersection([
  t.type({ org_id: t.number, name: t.string }),
  t.partial({
    url: lenient(t.string),
    url_label: lenient(t.string),
    user_limit: lenient(t.number),
    spaces: lenient(t.array(PodioOrgSpace)),
  }),
]);

export type PodioOrg = t.TypeOf<typeof PodioOrg>;

export const PodioCreatedSpace = t.intersection([
  t.type({ space_id: t.number }),
  t.partial({ url: lenient(t.string) }),
]);

export const PodioSpace = t.intersection([
  t.type({ space_id: t.number, name: t.string }),
  t.partial({
    org_id: lenient(t.number),
    org: lenient(
      t.intersection([t.type({ org_id: t.number }), t.partial({ name: lenient(t.string), url: lenient(t.string) })]),
    ),
    url: lenient(t.string),
    url_label: lenient(t.string),
    privacy: lenient(PrivacyCodec),
    type: lenient(t.string),
    auto_join: lenient(t.boolean),
    post_on_new_app: lenient(t.boolean),
    post_on_new_member: lenient(t.boolean),
    created_on: lenient(t.string),
    created_by: lenient(
      t.intersection([t.type({ name: t.string }), t.partial({ id: lenient(t.number), user_id: lenient(t.number) })]),
    ),
    role: lenient(Role),
    rights: lenient(t.array(t.string)),
  }),
]);
export type PodioSpace = t.TypeOf<typeof PodioSpace>;

/**
 * A space membership (`GET /space/{id}/member/v2/`). Only the profile id is insisted on: a role the gateway
 * does not know (or a blank one) reads as undefined and is shown as `light`, the role with the fewest rights,
 * and a missing name as an empty string, so one odd member does not fail the whole listing.
 */
export const PodioMember = t.intersection([
  t.type({
    profile: t.intersection([
      t.type({ profile_id: t.number }),
      t.partial({
        name: lenient(t.string),
        user_id: lenient(t.number),
        mail: lenient(t.array(t.string)),
        type: lenient(t.string),
      }),
    ]),
  }),
  t.partial({
    role: lenient(Role),
    user: lenient(t.partial({ user_id: lenient(t.number) })),
    employee: lenient(t.boolean),
    is_partner: lenient(t.boolean),
    grants: lenient(t.number),
    invited_on: lenient(t.union([t.string, t.null])),
    started_on: lenient(t.union([t.string, t.null])),
  }),
]);
export type PodioMember = t.TypeOf<typeof PodioMember>;
