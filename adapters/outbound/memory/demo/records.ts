// Demo apps of the in-memory Podio account: Leads, Properties and Deals in Acquisitions (2001), Work Orders
// in Property Management (2002). Records are generated from a fixed seed, so every start shows the same data.
import type { App, AppView } from '../../../../domain/records/app.js';
import type { InMemoryRecords } from '../in-memory-records.js';

export const LEADS_APP = 3001;
export const PROPERTIES_APP = 3002;
export const DEALS_APP = 3003;
export const WORK_ORDERS_APP = 3004;

export const propertiesApp: App = {
  app_id: PROPERTIES_APP,
  space_id: 2001,
  name: 'Properties',
  item_name: 'Property',
  description: 'Properties we track, with type, size and asking price.',
  icon: 'house',
  fields: [
    { field_id: 300201, external_id: 'address', label: 'Address', field_type: 'single_text', required: true },
    { field_id: 300202, external_id: 'location', label: 'Location', field_type: 'single_location', required: false },
    {
      field_id: 300203,
      external_id: 'property-type',
      label: 'Property type',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Single family', color: 'DCEBD8' },
        { id: 2, text: 'Multi family', color: 'F7F0C5' },
        { id: 3, text: 'Condo', color: 'D2E4EB' },
        { id: 4, text: 'Land', color: 'E1D8ED' },
      ],
    },
    { field_id: 300204, external_id: 'bedrooms', label: 'Bedrooms', field_type: 'number', required: false },
    { field_id: 300205, external_id: 'square-feet', label: 'Square feet', field_type: 'number', required: false },
    {
      field_id: 300206,
      external_id: 'asking-price',
      label: 'Asking price',
      field_type: 'money',
      required: false,
      currencies: ['USD'],
    },
    { field_id: 300207, external_id: 'listed-on', label: 'Listed on', field_type: 'single_date', required: false },
    { field_id: 300208, external_id: 'listing', label: 'Listing', field_type: 'multi_link', required: false },
    { field_id: 300209, external_id: 'photos', label: 'Photos', field_type: 'multi_image', required: false },
    {
      field_id: 300210,
      external_id: 'year-built',
      label: 'Year built',
      field_type: 'calculation',
      required: false,
      description: 'Read-only.',
    },
  ],
};

export const leadsApp: App = {
  app_id: LEADS_APP,
  space_id: 2001,
  name: 'Leads',
  item_name: 'Lead',
  description: 'Motivated sellers and how far we got with them.',
  icon: 'user',
  fields: [
    { field_id: 300101, external_id: 'name', label: 'Name', field_type: 'single_text', required: true },
    {
      field_id: 300102,
      external_id: 'status',
      label: 'Status',
      field_type: 'status',
      required: false,
      options: [
        { id: 1, text: 'New', color: 'DCEBD8' },
        { id: 2, text: 'Contacted', color: 'F7F0C5' },
        { id: 3, text: 'Qualified', color: 'D2E4EB' },
        { id: 4, text: 'Won', color: '9CE2A9', means_completed: true },
        { id: 5, text: 'Lost', color: 'F5C2C2', means_completed: true },
      ],
    },
    {
      field_id: 300103,
      external_id: 'source',
      label: 'Source',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Website' },
        { id: 2, text: 'Referral' },
        { id: 3, text: 'Cold call' },
        { id: 4, text: 'Direct mail' },
      ],
    },
    {
      field_id: 300104,
      external_id: 'motivation',
      label: 'Motivation',
      field_type: 'multi_category',
      required: false,
      options: [
        { id: 1, text: 'Probate' },
        { id: 2, text: 'Absentee owner' },
        { id: 3, text: 'Vacant' },
        { id: 4, text: 'Tax lien' },
        { id: 5, text: 'Divorce' },
      ],
    },
    { field_id: 300105, external_id: 'email', label: 'Email', field_type: 'multi_email', required: false },
    { field_id: 300106, external_id: 'phone', label: 'Phone', field_type: 'multi_phone', required: false },
    { field_id: 300107, external_id: 'owner', label: 'Owner', field_type: 'single_user', required: false },
    {
      field_id: 300108,
      external_id: 'budget',
      label: 'Budget',
      field_type: 'money',
      required: false,
      currencies: ['USD', 'EUR'],
    },
    {
      field_id: 300109,
      external_id: 'next-follow-up',
      label: 'Next follow-up',
      field_type: 'single_date',
      required: false,
    },
    { field_id: 300110, external_id: 'score', label: 'Score', field_type: 'number', required: false },
    {
      field_id: 300111,
      external_id: 'property',
      label: 'Property',
      field_type: 'single_relation',
      required: false,
      referenced_app_ids: [PROPERTIES_APP],
    },
    { field_id: 300112, external_id: 'tasks', label: 'Tasks', field_type: 'checklist', required: false },
    { field_id: 300113, external_id: 'notes', label: 'Notes', field_type: 'multi_text', required: false },
    {
      field_id: 300114,
      external_id: 'first-contact',
      label: 'First contact',
      field_type: 'single_date',
      required: false,
    },
  ],
};

export const dealsApp: App = {
  app_id: DEALS_APP,
  space_id: 2001,
  name: 'Deals',
  item_name: 'Deal',
  description: 'Offers and contracts, linked to their lead and properties.',
  icon: 'handshake',
  fields: [
    { field_id: 300301, external_id: 'title', label: 'Title', field_type: 'single_text', required: true },
    {
      field_id: 300302,
      external_id: 'lead',
      label: 'Lead',
      field_type: 'single_relation',
      required: false,
      referenced_app_ids: [LEADS_APP],
    },
    {
      field_id: 300303,
      external_id: 'properties',
      label: 'Properties',
      field_type: 'multi_relation',
      required: false,
      referenced_app_ids: [PROPERTIES_APP],
    },
    {
      field_id: 300304,
      external_id: 'stage',
      label: 'Stage',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Offer' },
        { id: 2, text: 'Under contract' },
        { id: 3, text: 'Closed' },
        { id: 4, text: 'Dead' },
      ],
    },
    {
      field_id: 300305,
      external_id: 'amount',
      label: 'Amount',
      field_type: 'money',
      required: false,
      currencies: ['USD'],
    },
    {
      field_id: 300306,
      external_id: 'contract-period',
      label: 'Contract period',
      field_type: 'range_date',
      required: false,
    },
    { field_id: 300307, external_id: 'close-date', label: 'Close date', field_type: 'single_date', required: false },
    { field_id: 300308, external_id: 'team', label: 'Team', field_type: 'multi_user', required: false },
    { field_id: 300309, external_id: 'documents', label: 'Documents', field_type: 'attachment', required: false },
    {
      field_id: 300310,
      external_id: 'closing-checklist',
      label: 'Closing checklist',
      field_type: 'checklist',
      required: false,
    },
    {
      field_id: 300311,
      external_id: 'commission',
      label: 'Commission',
      field_type: 'calculation',
      required: false,
      description: '3% of the amount (read-only).',
    },
  ],
};

export const workOrdersApp: App = {
  app_id: WORK_ORDERS_APP,
  space_id: 2002,
  name: 'Work Orders',
  item_name: 'Work order',
  description: 'Repairs and maintenance on managed properties.',
  icon: 'wrench',
  fields: [
    { field_id: 300401, external_id: 'summary', label: 'Summary', field_type: 'single_text', required: true },
    {
      field_id: 300402,
      external_id: 'priority',
      label: 'Priority',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Low' },
        { id: 2, text: 'Normal' },
        { id: 3, text: 'Urgent' },
      ],
    },
    { field_id: 300403, external_id: 'due', label: 'Due', field_type: 'single_date', required: false },
    { field_id: 300404, external_id: 'assigned-to', label: 'Assigned to', field_type: 'multi_user', required: false },
    { field_id: 300405, external_id: 'cost', label: 'Cost', field_type: 'number', required: false },
    { field_id: 300406, external_id: 'created', label: 'Created', field_type: 'created_on', required: false },
    { field_id: 300407, external_id: 'reported-by', label: 'Reported by', field_type: 'created_by', required: false },
  ],
};

export const demoViews: Record<number, readonly AppView[]> = {
  [LEADS_APP]: [
    {
      view_id: 400101,
      name: 'Open leads',
      filters: [{ field_id: '300102', match_type: 'incomplete' }],
      sort_by: 'score',
      sort_desc: true,
    },
    {
      view_id: 400102,
      name: 'Probate leads',
      filters: [{ field_id: 'motivation', match_type: 'any', values: [{ value: 1 }] }],
    },
  ],
  [DEALS_APP]: [
    {
      view_id: 400301,
      name: 'Closed deals',
      filters: [{ field_id: 'stage', match_type: 'equal', values: [{ value: 3 }] }],
      sort_by: 'close-date',
      sort_desc: true,
    },
  ],
};

/** A small deterministic generator (mulberry32). */
export const seededRandom = (seed: number) => {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const FIRST = [
  'Ana',
  'Ben',
  'Carla',
  'David',
  'Elena',
  'Frank',
  'Grace',
  'Hector',
  'Irene',
  'Jonah',
  'Keiko',
  'Luis',
  'Mona',
  'Nate',
  'Olga',
  'Pavel',
];
const LAST = [
  'Rivera',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Patel',
  'Kowalski',
  'Nguyen',
  'Brennan',
  'Silva',
  'Haddad',
  'Tanaka',
  'Weber',
];
const STREETS = ['Harbor Way', 'Elm St', 'Maple Ave', 'Ocean Dr', 'Cedar Ln', 'Pine St', 'Bay Rd', 'Hill St'];
const CITIES = ['Boston, MA', 'Salem, MA', 'Quincy, MA', 'Lynn, MA'];
const PROFILES = [9101, 9102, 9103, 9104];
const USERS = [5001, 5002, 5003, 5004];

const pad = (n: number) => String(n).padStart(2, '0');
const day = (base: Date, offsetDays: number) => {
  const d = new Date(base.getTime() + offsetDays * 86400000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

export interface DemoRecordCounts {
  readonly properties: number;
  readonly leads: number;
  readonly deals: number;
}

/** Adds the demo apps, views and records. `counts` scales the data (the benchmark asks for 100,000 leads). */
export const seedDemoRecords = (
  store: InMemoryRecords,
  counts: DemoRecordCounts = { properties: 24, leads: 60, deals: 18 },
  seed = 42,
): void => {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const base = new Date(Date.UTC(2026, 0, 5, 9, 0, 0));
  for (const app of [propertiesApp, leadsApp, dealsApp, workOrdersApp]) store.addApp(app, demoViews[app.app_id] ?? []);
  const brochure = store.addFile({ name: 'brochure.pdf', mimetype: 'application/pdf', size: 48213 });
  const photo = store.addFile({ name: 'front.jpg', mimetype: 'image/jpeg', size: 182331 });

  const properties: number[] = [];
  for (let i = 0; i < counts.properties; i++) {
    const at = new Date(
      base.getTime() +
        Math.floor((i / Math.max(1, counts.properties)) * 300) * 86400000 +
        Math.floor(rnd() * 8) * 3600000,
    );
    const sqft = 700 + Math.floor(rnd() * 2600);
    const r = store.seed(
      PROPERTIES_APP,
      {
        address: `${10 + i * 7} ${STREETS[i % STREETS.length]}`,
        location: `${10 + i * 7} ${STREETS[i % STREETS.length]}, ${pick(CITIES)}`,
        'property-type': [1 + (i % 4)],
        bedrooms: 1 + Math.floor(rnd() * 5),
        'square-feet': sqft,
        'asking-price': { value: String(150000 + Math.floor(rnd() * 60) * 10000), currency: 'USD' },
        'listed-on': `${day(at, Math.floor(rnd() * 20))} 00:00:00`,
        ...(i % 3 === 0 ? { listing: [{ url: `https://listings.example.com/p/${1000 + i}`, title: 'Listing' }] } : {}),
        ...(i % 4 === 0 ? { photos: [photo.file_id] } : {}),
      },
      at,
      pick(USERS),
      { 300210: 1950 + Math.floor(rnd() * 70) },
    );
    properties.push(r.record_id);
  }

  const leads: number[] = [];
  for (let i = 0; i < counts.leads; i++) {
    const at = new Date(base.getTime() + Math.floor((i / Math.max(1, counts.leads)) * 320 * 24) * 3600000);
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
    const name = counts.leads > FIRST.length * LAST.length ? `${first} ${last} ${i + 1}` : `${first} ${last}`;
    const status = 1 + Math.floor(rnd() * 5);
    const motivation = [1, 2, 3, 4, 5].filter(() => rnd() < 0.3);
    const fields: Record<string, unknown> = {
      name,
      status: [status],
      source: [1 + Math.floor(rnd() * 4)],
      ...(motivation.length ? { motivation } : {}),
      ...(i % 5 !== 4
        ? { email: [{ type: i % 2 ? 'home' : 'work', email: `${first}.${last}${i}@example.com`.toLowerCase() }] }
        : {}),
      ...(i % 3 !== 2
        ? {
            phone: [
              { type: pick(['mobile', 'work', 'home'] as const), phone: `+1 617 555 ${String(1000 + i).slice(-4)}` },
            ],
          }
        : {}),
      owner: [pick(PROFILES)],
      ...(i % 4 !== 3 ? { budget: { value: String(100000 + Math.floor(rnd() * 40) * 10000), currency: 'USD' } } : {}),
      ...(status < 4 ? { 'next-follow-up': `${day(at, 10 + Math.floor(rnd() * 60))} 00:00:00` } : {}),
      'first-contact': `${day(at, 0)} ${pad(8 + Math.floor(rnd() * 9))}:${pad(Math.floor(rnd() * 60))}:00`,
      score: Math.floor(rnd() * 101),
      ...(properties.length && i % 2 === 0 ? { property: [properties[i % properties.length]] } : {}),
      ...(i % 6 === 0
        ? {
            tasks: [
              { title: 'Call back', completed: rnd() < 0.5 },
              { title: 'Send offer letter', completed: false, due: day(at, 14), assignee: pick(USERS) },
            ],
          }
        : {}),
      ...(i % 7 === 0 ? { notes: 'Prefers e-mail. Inherited the house; wants a quick close.' } : {}),
    };
    leads.push(store.seed(LEADS_APP, fields, at, pick(USERS)).record_id);
  }

  for (let i = 0; i < counts.deals; i++) {
    const at = new Date(base.getTime() + Math.floor((i / Math.max(1, counts.deals)) * 300) * 86400000 + 36000000);
    const stage = 1 + (i % 4);
    const amount = 120000 + Math.floor(rnd() * 50) * 10000;
    const start = day(at, 3);
    const props = properties.length
      ? [
          properties[i % properties.length]!,
          ...(i % 3 === 0 && properties.length > 1 ? [properties[(i + 5) % properties.length]!] : []),
        ]
      : [];
    store.seed(
      DEALS_APP,
      {
        title: `Deal ${i + 1}: ${STREETS[i % STREETS.length]}`,
        ...(leads.length ? { lead: [leads[(i * 3) % leads.length]] } : {}),
        ...(props.length ? { properties: [...new Set(props)] } : {}),
        stage: [stage],
        amount: { value: String(amount), currency: 'USD' },
        'contract-period': { start: `${start} 00:00:00`, end: `${day(at, 33 + Math.floor(rnd() * 30))} 00:00:00` },
        ...(stage === 3 ? { 'close-date': `${day(at, 40 + Math.floor(rnd() * 20))} 00:00:00` } : {}),
        team: [PROFILES[i % PROFILES.length], ...(i % 2 ? [PROFILES[(i + 1) % PROFILES.length]] : [])],
        ...(i % 4 === 0 ? { documents: [brochure.file_id] } : {}),
        ...(stage >= 2
          ? {
              'closing-checklist': [
                { title: 'Title search', completed: stage === 3 },
                { title: 'Inspection', completed: stage === 3 },
              ],
            }
          : {}),
      },
      at,
      pick(USERS),
      { 300311: Math.round(amount * 0.03 * 100) / 100 },
    );
  }

  if (counts.properties > 0) {
    store.seed(
      WORK_ORDERS_APP,
      { summary: 'Replace water heater', priority: [3], due: '2026-12-01 00:00:00', 'assigned-to': [9103], cost: 1450 },
      new Date(Date.UTC(2026, 10, 2, 14)),
      5003,
    );
    store.seed(
      WORK_ORDERS_APP,
      { summary: 'Repaint hallway', priority: [1], due: '2027-01-15 00:00:00', cost: 800 },
      new Date(Date.UTC(2026, 10, 9, 9)),
      5001,
    );
  }
};
