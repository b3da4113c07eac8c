import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import {
  SPACE_ROLES,
  validateInvitation,
  type InvitationOutcome,
  type SpaceRole,
} from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NonEmptyString, NumericId, object, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps, table } from '../runtime/markdown.js';
import { MembersAddedResult } from './workspace-results.js';

const ExternalContact = object(
  'ExternalContact',
  { mail: described(NonEmptyString, 'E-mail address.') },
  { name: described(t.string, 'Their name.') },
);

export const AddMemberToSpaceParams = params(
  {
    space_id: described(NumericId, 'The space to add people to.'),
    role: described(
      oneOf(SPACE_ROLES, 'SpaceRole'),
      'admin (manages the space), regular (works with apps and items) or light (reads and comments).',
    ),
  },
  {
    users: described(t.array(NumericId), 'User ids (user_id in workspaces_getSpaceMembers).'),
    profiles: described(t.array(NumericId), 'Profile ids (as contact fields of records use).'),
    mails: described(t.array(NonEmptyString), 'E-mail addresses.'),
    message: described(t.string, 'A personal note in the invitation.'),
    external_contacts: described(
      t.array(ExternalContact),
      'Outside contacts to invite, each with a mail and optional name.',
    ),
  },
);
export type AddMemberToSpaceParams = t.TypeOf<typeof AddMemberToSpaceParams>;

export interface AddMemberToSpaceResult {
  readonly space_id: number;
  readonly role: SpaceRole;
  readonly people: readonly InvitationOutcome[];
}

@injectable()
export class AddMemberToSpace implements UseCase<AddMemberToSpaceParams, AddMemberToSpaceResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: AddMemberToSpaceParams): TaskEither<GatewayError, AddMemberToSpaceResult> {
    return pipe(
      TE.fromEither(
        validateInvitation({
          role: p.role,
          users: p.users ?? [],
          profiles: p.profiles ?? [],
          mails: p.mails ?? [],
          message: p.message,
          external_contacts: p.external_contacts,
        }),
      ),
      TE.chain((invitation) => this.directory.addMembers(p.space_id, invitation)),
      TE.map((people) => ({ space_id: p.space_id, role: p.role, people })),
    );
  }
}

const STATUS: Record<InvitationOutcome['status'], string> = {
  added: 'added (active)',
  invited: 'invited (pending)',
  already_member: 'already a member (unchanged)',
  requested: 'sent to Podio',
};

export const addMemberToSpaceTool = defineTool({
  group: 'workspaces',
  name: 'addMemberToSpace',
  title: 'Add members to space',
  description:
    "Adds people to a space with one role, by user id, profile id or e-mail (an address without an account becomes a pending invitation). FORBIDDEN when the organization's user limit would be passed.",
  annotations: { kind: 'Write', idempotent: false },
  params: AddMemberToSpaceParams,
  useCase: AddMemberToSpace,
  result: MembersAddedResult,
  text: (r) => {
    const rows = r.people.map((o) => [o.user_id, o.profile_id, o.name, o.mail, STATUS[o.status]]);
    return [
      `## Space ${r.space_id}: ${r.people.length} ${r.people.length === 1 ? 'person' : 'people'} handled, role ${r.role}`,
      table(['user_id', 'profile_id', 'name', 'mail', 'result'], rows),
      nextSteps([
        `See everyone: ${call('workspaces_getSpaceMembers', { space_id: r.space_id })}`,
        'Cancel a pending invitation with workspaces_endSpaceMemberships (by user_id).',
      ]),
    ].join('\n\n');
  },
});
