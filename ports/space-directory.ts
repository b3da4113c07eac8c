import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
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
} from '../domain/workspaces/space.js';

/** Podio's organisations, spaces and space memberships (the workspaces group). */
export interface SpaceDirectory {
  /** The organisations the acting user belongs to, each with the spaces the user can see. */
  organisations(): TaskEither<GatewayError, readonly Organisation[]>;
  createSpace(space: NewSpace): TaskEither<GatewayError, CreatedSpace>;
  getSpace(spaceId: number): TaskEither<GatewayError, SpaceDetails>;
  /** Changes only the given values. */
  updateSpace(spaceId: number, changes: SpaceChanges): TaskEither<GatewayError, void>;
  /** Deletes the space for good: memberships, invitations, apps and records go with it. */
  deleteSpace(spaceId: number): TaskEither<GatewayError, void>;
  /** Adds or invites people; Forbidden when the space's user limit would be passed. */
  addMembers(spaceId: number, invitation: Invitation): TaskEither<GatewayError, readonly InvitationOutcome[]>;
  members(spaceId: number, query: MemberQuery): TaskEither<GatewayError, MemberPage>;
  updateRoles(spaceId: number, userIds: readonly number[], role: SpaceRole): TaskEither<GatewayError, void>;
  /** Ends active memberships and cancels pending invitations alike. */
  endMemberships(spaceId: number, userIds: readonly number[]): TaskEither<GatewayError, void>;
}

export const SpaceDirectory = Symbol.for('SpaceDirectory') as ServiceIdentifier<SpaceDirectory>;
