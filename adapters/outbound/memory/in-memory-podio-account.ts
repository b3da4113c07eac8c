import { demoActingUserId, demoOrganisations, demoSpaces, demoUsers, type DemoMembership, type DemoOrganisation, type DemoSpace, type DemoUser } from './demo/podio-people.js';

/**
 * The state one in-memory Podio account shares between its groups: people, organisations, spaces and
 * memberships (workspaces), and the events the records group needs (a deleted space takes its apps and
 * records with it, as in Podio). The workspaces adapter owns the space and member state; the records
 * adapter reads users and spaces and listens for deletions.
 */
export class InMemoryPodioAccount {
  readonly users = new Map<number, DemoUser>();
  readonly organisations = new Map<number, DemoOrganisation>();
  readonly spaces = new Map<number, DemoSpace>();
  private readonly spaceDeletedListeners: ((spaceId: number) => void)[] = [];

  constructor(
    data: { users: readonly DemoUser[]; organisations: readonly DemoOrganisation[]; spaces: readonly DemoSpace[] },
    /** The user the gateway acts as (created_by of new records and comments, include_active_user). */
    readonly actingUserId: number,
  ) {
    for (const u of data.users) this.users.set(u.user_id, u);
    for (const o of data.organisations) this.organisations.set(o.org_id, o);
    for (const s of data.spaces) this.spaces.set(s.space_id, { ...s, members: [...s.members] });
  }

  static withDemoData(): InMemoryPodioAccount {
    return new InMemoryPodioAccount({ users: demoUsers, organisations: demoOrganisations, spaces: demoSpaces }, demoActingUserId);
  }

  /** An account with only the acting user and one organisation, for GATEWAY_DEMO_DATA=false. */
  static empty(): InMemoryPodioAccount {
    const me = demoUsers.find((u) => u.user_id === demoActingUserId)!;
    return new InMemoryPodioAccount({ users: [me], organisations: [demoOrganisations[0]!], spaces: [] }, demoActingUserId);
  }

  user(userId: number): DemoUser | undefined {
    return this.users.get(userId);
  }

  userByProfileId(profileId: number): DemoUser | undefined {
    for (const u of this.users.values()) if (u.profile_id === profileId) return u;
    return undefined;
  }

  actingUser(): DemoUser {
    return this.users.get(this.actingUserId)!;
  }

  space(spaceId: number): DemoSpace | undefined {
    return this.spaces.get(spaceId);
  }

  /** Called by the workspaces adapter after it removed a space; listeners drop what lived in it. */
  spaceDeleted(spaceId: number): void {
    for (const listener of this.spaceDeletedListeners) listener(spaceId);
  }

  onSpaceDeleted(listener: (spaceId: number) => void): void {
    this.spaceDeletedListeners.push(listener);
  }
}

export type { DemoMembership, DemoOrganisation, DemoSpace, DemoUser };
