import type { SpaceDetails, SpaceMember } from '../../domain/workspaces/space.js';
import { fields, type Cell } from '../runtime/markdown.js';

const yesNo = (b: boolean | undefined): string | undefined => (b === undefined ? undefined : b ? 'yes' : 'no');

/** A member table with both ids: contact fields of the records tools take the profile_id, membership tools the user_id. */
export const memberTable = (members: readonly SpaceMember[]): { columns: string[]; rows: Cell[][] } => ({
  columns: ['user_id', 'profile_id', 'name', 'role', 'member', 'status', 'mail'],
  rows: members.map((m) => [
    m.profile.user_id,
    m.profile.profile_id,
    m.profile.name,
    m.role,
    m.employee ? 'employee' : 'external',
    m.status === 'invited' ? 'invited (pending)' : 'active',
    m.profile.mail.join(', '),
  ]),
});

export const spaceText = (s: SpaceDetails, verbose: boolean): string =>
  [
    `## Space "${s.name}" (space_id ${s.space_id})`,
    fields([
      ['Organization', s.org_name ? `${s.org_name} (org_id ${s.org_id})` : `org_id ${s.org_id}`],
      ['URL', s.url],
      ['url_label', s.url_label],
      ['Privacy', s.privacy],
      ['Type', s.type],
      ['Auto join', yesNo(s.auto_join)],
      ['Post on new app', yesNo(s.post_on_new_app)],
      ['Post on new member', yesNo(s.post_on_new_member)],
      ...(verbose
        ? ([
            [
              'Created',
              s.created_on
                ? `${s.created_on}${s.created_by ? ` by ${s.created_by.name}${s.created_by.user_id ? ` (user_id ${s.created_by.user_id})` : ''}` : ''}`
                : undefined,
            ],
            ['Your role', s.role],
            ['Your rights', s.rights?.join(', ')],
          ] as const)
        : []),
    ]),
  ].join('\n\n');
