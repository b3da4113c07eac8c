// Demo records of the in-memory Podio account's apps (record-apps.ts), generated from a fixed seed, so every
// start shows the same data.
import type { InMemoryRecords } from '../in-memory-records.js';
import {
  dealsApp,
  DEALS_APP,
  demoViews,
  LEADS_APP,
  leadsApp,
  PROPERTIES_APP,
  propertiesApp,
  WORK_ORDERS_APP,
  workOrdersApp,
} from './record-apps.js';

export { DEALS_APP, LEADS_APP, leadsApp, PROPERTIES_APP, WORK_ORDERS_APP } from './record-apps.js';

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
const CITIES = [
  { city: 'Boston', state: 'MA', zip: '02110', county: 'Suffolk', fips: '25025' },
  { city: 'Salem', state: 'MA', zip: '01970', county: 'Essex', fips: '25009' },
  { city: 'Quincy', state: 'MA', zip: '02169', county: 'Norfolk', fips: '25021' },
  { city: 'Lynn', state: 'MA', zip: '01901', county: 'Essex', fips: '25009' },
] as const;

/** The address of the i-th demo property: the Properties app and the demo skip tracer share it. */
export interface DemoPropertyAddress {
  readonly street: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly county: string;
  readonly fips: string;
}

export const demoPropertyAddress = (i: number): DemoPropertyAddress => ({
  street: `${10 + i * 7} ${STREETS[i % STREETS.length]}`,
  ...CITIES[i % CITIES.length]!,
});

/** The first and last name of the i-th demo lead. */
export const demoLeadName = (i: number): { readonly first: string; readonly last: string } => ({
  first: FIRST[i % FIRST.length]!,
  last: LAST[Math.floor(i / FIRST.length) % LAST.length]!,
});

/** How many properties the demo seeds by default. */
export const DEMO_PROPERTY_COUNT = 24;
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
  counts: DemoRecordCounts = { properties: DEMO_PROPERTY_COUNT, leads: 60, deals: 18 },
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
    const place = demoPropertyAddress(i);
    rnd(); // the city was once drawn here; the draw is kept so that every later value stays the same
    const r = store.seed(
      PROPERTIES_APP,
      {
        address: place.street,
        location: `${place.street}, ${place.city}, ${place.state} ${place.zip}`,
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
    const { first, last } = demoLeadName(i);
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
