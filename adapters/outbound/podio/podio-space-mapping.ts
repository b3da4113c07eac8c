import type { Organisation, SpaceDetails, SpaceMember } from '../../../domain/workspaces/space.js';
import type { PodioMember, PodioOrg, PodioSpace } from './podio-space-codecs.js';

// Podio's spaces and members as the domain's (defaults where Podio leaves a field out).

export const toMember = (m: PodioMember): SpaceMember => {
  const employee = m.employee ?? false;
  return {
    role: m.role ?? 'light',
    employee,
    is_partner: m.is_partner ?? !employee,
    grants: m.grants ?? 0,
    status: m.invited_on && !m.started_on ? 'invited' : 'active',
    profile: {
      profile_id: m.profile.profile_id,
      user_id: m.profile.user_id ?? m.user?.user_id ?? 0,
      name: m.profile.name ?? '',
      mail: m.profile.mail ?? [],
      type: m.profile.type ?? 'user',
    },
  };
};

export const toSpace = (s: PodioSpace): SpaceDetails => ({
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
  ...(s.created_by
    ? { created_by: { name: s.created_by.name, user_id: s.created_by.user_id ?? s.created_by.id } }
    : {}),
  ...(s.role ? { role: s.role } : {}),
  ...(s.rights ? { rights: s.rights } : {}),
});

export const toOrganisation = (o: PodioOrg): Organisation => ({
  org_id: o.org_id,
  name: o.name,
  url: o.url ?? '',
  url_label: o.url_label ?? '',
  ...(o.user_limit !== undefined ? { user_limit: o.user_limit } : {}),
  spaces: (o.spaces ?? []).map((s) => ({
    space_id: s.space_id,
    name: s.name,
    url: s.url ?? '',
    ...(s.privacy ? { privacy: s.privacy } : {}),
    ...(s.role ? { role: s.role } : {}),
  })),
});
