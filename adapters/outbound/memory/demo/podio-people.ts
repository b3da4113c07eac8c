// The people, organisations and spaces of the demo Podio account. Shared by the workspaces group
// (members, invitations) and the records group (apps live in these spaces; contact fields take a
// member's profile_id; created_by shows the user). user_id and profile_id are different numbers, as in Podio.

export interface DemoUser {
  readonly user_id: number;
  readonly profile_id: number;
  readonly name: string;
  readonly mail: string;
}

export interface DemoMembership {
  readonly user_id: number;
  readonly role: 'admin' | 'regular' | 'light';
  /** Whether the member belongs to the organisation (an employee) rather than being an outside partner. */
  readonly employee: boolean;
}

export interface DemoSpace {
  readonly space_id: number;
  readonly org_id: number;
  readonly name: string;
  readonly url_label: string;
  readonly privacy: 'open' | 'closed';
  readonly members: readonly DemoMembership[];
}

export interface DemoOrganisation {
  readonly org_id: number;
  readonly name: string;
  readonly url_label: string;
  /** Most members a space of this organisation may have (active plus pending invitations). */
  readonly user_limit: number;
}

export const demoUsers: readonly DemoUser[] = [
  { user_id: 5001, profile_id: 9101, name: 'Maria Gonzalez', mail: 'maria.gonzalez@acmerealty.example' },
  { user_id: 5002, profile_id: 9102, name: 'James Chen', mail: 'james.chen@acmerealty.example' },
  { user_id: 5003, profile_id: 9103, name: 'Priya Shah', mail: 'priya.shah@acmerealty.example' },
  { user_id: 5004, profile_id: 9104, name: 'Tom Becker', mail: 'tom.becker@acmerealty.example' },
  { user_id: 5005, profile_id: 9105, name: 'Lena Fischer', mail: 'lena.fischer@harborholdings.example' },
  { user_id: 5006, profile_id: 9106, name: 'Omar Haddad', mail: 'omar@haddad-partners.example' },
];

export const demoOrganisations: readonly DemoOrganisation[] = [
  { org_id: 1001, name: 'Acme Realty Group', url_label: 'acme-realty-group', user_limit: 8 },
  { org_id: 1002, name: 'Harbor Holdings', url_label: 'harbor-holdings', user_limit: 4 },
];

export const demoSpaces: readonly DemoSpace[] = [
  {
    space_id: 2001,
    org_id: 1001,
    name: 'Acquisitions',
    url_label: 'acquisitions',
    privacy: 'closed',
    members: [
      { user_id: 5001, role: 'admin', employee: true },
      { user_id: 5002, role: 'regular', employee: true },
      { user_id: 5003, role: 'regular', employee: true },
      { user_id: 5004, role: 'light', employee: true },
      { user_id: 5006, role: 'light', employee: false },
    ],
  },
  {
    space_id: 2002,
    org_id: 1001,
    name: 'Property Management',
    url_label: 'property-management',
    privacy: 'open',
    members: [
      { user_id: 5001, role: 'admin', employee: true },
      { user_id: 5003, role: 'regular', employee: true },
    ],
  },
  {
    space_id: 2003,
    org_id: 1002,
    name: 'Harbor Ops',
    url_label: 'harbor-ops',
    privacy: 'closed',
    members: [
      { user_id: 5005, role: 'admin', employee: true },
      { user_id: 5002, role: 'regular', employee: false },
    ],
  },
];

/** The user the demo token acts as in Podio (created_by, include_active_user, comments). */
export const demoActingUserId = 5001;
