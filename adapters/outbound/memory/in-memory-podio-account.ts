import {
  demoActingUserId,
  demoOrganisations,
  demoSpaces,
  demoUsers,
  type DemoMembership,
  type DemoOrganisation,
  type DemoSpace,
  type DemoUser,
} from './demo/podio-people.js';

/** A membership as the account keeps it: active, or a pending invitation (the person has a user id already, as in Podio). */
export interface AccountMembership extends DemoMembership {
  readonly status: 'active' | 'invited';
  readonly is_partner: boolean;
  readonly grants: number;
  readonly invited_on?: string;
}

/** A space with everything the workspaces group keeps about it. */
export interface AccountSpace extends DemoSpace {
  readonly type: string;
  readonly auto_join: boolean;
  readonly post_on_new_app: boolean;
  readonly post_on_new_member: boolean;
  readonly created_on: string;
  readonly created_by: number;
  readonly members: readonly AccountMembership[];
}

const DEMO_CREATED_ON = '2025-09-01 08:00:00';

const toAccountSpace = (s: DemoSpace): AccountSpace => {
  const anySpace = s as Partial<AccountSpace> & DemoSpace;
  return {
    ...s,
    type: anySpace.type ?? 'regular',
    auto_join: anySpace.auto_join ?? false,
    post_on_new_app: anySpace.post_on_new_app ?? true,
    post_on_new_member: anySpace.post_on_new_member ?? true,
    created_on: anySpace.created_on ?? DEMO_CREATED_ON,
    created_by: anySpace.created_by ?? s.members.find((m) => m.role === 'admin')?.user_id ?? demoActingUserId,
    members: s.members.map((m) => {
      const am = m as Partial<AccountMembership> & DemoMembership;
      return {
        ...m,
        status: am.status ?? 'active',
        is_partner: am.is_partner ?? !m.employee,
        grants: am.grants ?? 0,
        ...(am.invited_on ? { invited_on: am.invited_on } : {}),
      };
    }),
  };
};

/**
 * The state one in-memory Podio account shares between its groups: people, organisations, spaces and
 * memberships (workspaces), and the events the records group needs (a deleted space takes its apps and
 * records with it, as in Podio). The workspaces adapter owns the space and member state; the records
 * adapter reads users and spaces and listens for deletions.
 *
 * `spaces` holds every space with all its memberships, pending invitations included (`status`);
 * `activeMembers` gives only those who joined. An email invitation of someone unknown creates a user
 * (with user_id and profile_id) whose membership stays `invited`.
 */
export class InMemoryPodioAccount {
  readonly users = new Map<number, DemoUser>();
  readonly organisations = new Map<number, DemoOrganisation>();
  readonly spaces = new Map<number, AccountSpace>();
  private readonly spaceDeletedListeners: ((spaceId: number) => void)[] = [];
  private nextSpace = 2001;
  private nextUser = 5001;
  private nextProfile = 9101;

  constructor(
    data: { users: readonly DemoUser[]; organisations: readonly DemoOrganisation[]; spaces: readonly DemoSpace[] },
    /** The user the gateway acts as (created_by of new records and comments, include_active_user). */
    readonly actingUserId: number,
  ) {
    for (const u of data.users) this.users.set(u.user_id, u);
    for (const o of data.organisations) this.organisations.set(o.org_id, o);
    for (const s of data.spaces) this.spaces.set(s.space_id, toAccountSpace(s));
    this.nextSpace = Math.max(this.nextSpace, ...data.spaces.map((s) => s.space_id + 1));
    this.nextUser = Math.max(this.nextUser, ...data.users.map((u) => u.user_id + 1));
    this.nextProfile = Math.max(this.nextProfile, ...data.users.map((u) => u.profile_id + 1));
  }

  static withDemoData(): InMemoryPodioAccount {
    return new InMemoryPodioAccount(
      { users: demoUsers, organisations: demoOrganisations, spaces: demoSpaces },
      demoActingUserId,
    );
  }

  /** An account with only the acting user and one organisation, for GATEWAY_DEMO_DATA=false. */
  static empty(): InMemoryPodioAccount {
    const me = demoUsers.find((u) => u.user_id === demoActingUserId)!;
    return new InMemoryPodioAccount(
      { users: [me], organisations: [demoOrganisations[0]!], spaces: [] },
      demoActingUserId,
    );
  }

  user(userId: number): DemoUser | undefined {
    return this.users.get(userId);
  }

  userByProfileId(profileId: number): DemoUser | undefined {
    for (const u of this.users.values()) if (u.profile_id === profileId) return u;
    return undefined;
  }

  userByMail(mail: string): DemoUser | undefined {
    const wanted = mail.trim().toLowerCase();
    for (const u of this.users.values()) if (u.mail.toLowerCase() === wanted) return u;
    return undefined;
  }

  /** A user for an address nobody has yet (an invitation creates the account in Podio). */
  addUser(mail: string, name?: string): DemoUser {
    const user: DemoUser = {
      user_id: this.nextUser++,
      profile_id: this.nextProfile++,
      name: name ?? mail.trim().toLowerCase(),
      mail: mail.trim().toLowerCase(),
    };
    this.users.set(user.user_id, user);
    return user;
  }

  actingUser(): DemoUser {
    return this.users.get(this.actingUserId)!;
  }

  space(spaceId: number): AccountSpace | undefined {
    return this.spaces.get(spaceId);
  }

  /** Members who joined (not pending invitations). */
  activeMembers(spaceId: number): readonly AccountMembership[] {
    return this.spaces.get(spaceId)?.members.filter((m) => m.status === 'active') ?? [];
  }

  newSpaceId(): number {
    return this.nextSpace++;
  }

  /** Stores a new or changed space (values are replaced, never mutated). */
  putSpace(space: AccountSpace): void {
    this.spaces.set(space.space_id, space);
  }

  /** Removes a space and tells the listeners (the records group drops its apps and records). */
  removeSpace(spaceId: number): boolean {
    const existed = this.spaces.delete(spaceId);
    if (existed) this.spaceDeleted(spaceId);
    return existed;
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
