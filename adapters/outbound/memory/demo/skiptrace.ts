import type { Person, PhoneNumber, PostalAddress } from '../../../../domain/skiptrace/skip-trace.js';
import { DEMO_PROPERTY_COUNT, demoLeadName, demoPropertyAddress } from './records.js';

/** A property the demo skip tracer knows, with its owners in the result's shape. */
export interface DemoProperty {
  readonly address: PostalAddress & { street: string; city: string; state: string; zip: string };
  readonly apn: string;
  readonly county: string;
  readonly countyFipsCode: string;
  readonly owners: readonly Omit<Person, 'meta' | 'propertyAddress'>[];
}

const listedProperties: readonly DemoProperty[] = [
  {
    address: {
      street: '1011 Rosegold St',
      city: 'Franklin Square',
      state: 'NY',
      zip: '11010',
      county: 'Nassau',
      houseNumber: '1011',
    },
    apn: '34-125-0018',
    county: 'Nassau',
    countyFipsCode: '36059',
    owners: [
      {
        name: { first: 'Eleanor', middle: 'J', last: 'Whitfield', full: 'Eleanor J Whitfield' },
        dnc: { tcpa: false },
        death: { deceased: false },
        litigator: false,
        bankruptcy: { bankruptcy: false, filingDate: null },
        phoneNumbers: [
          {
            number: '5165550142',
            carrier: 'Verizon Wireless',
            type: 'Mobile',
            lastReportedDate: '2026-09-14',
            score: 95,
            tcpa: false,
            tested: true,
            dnc: false,
            reachable: true,
          },
          {
            number: '5165550178',
            carrier: 'Optimum',
            type: 'Land Line',
            lastReportedDate: '2025-03-02',
            score: 61,
            tcpa: false,
            tested: true,
            dnc: true,
            reachable: true,
          },
        ],
        emails: [{ email: 'eleanor.whitfield@example.com', tested: true }],
        mailingAddress: {
          street: '1011 Rosegold St',
          city: 'Franklin Square',
          state: 'NY',
          zip: '11010',
          zipPlus4: '1834',
          hash: 'a1f3c9e0b2',
        },
        property: {
          owner: {
            name: { full: 'Eleanor J Whitfield' },
            mailingAddress: { street: '1011 Rosegold St', city: 'Franklin Square', state: 'NY', zip: '11010' },
          },
          address: {
            street: '1011 Rosegold St',
            city: 'Franklin Square',
            state: 'NY',
            zip: '11010',
            county: 'Nassau',
            houseNumber: '1011',
            streetNoUnit: '1011 Rosegold St',
            formattedStreet: '1011 Rosegold St',
            addressValidity: 'Valid',
          },
        },
      },
    ],
  },
  {
    address: {
      street: '25866 W Globe Ave',
      city: 'Buckeye',
      state: 'AZ',
      zip: '85326',
      county: 'Maricopa',
      houseNumber: '25866',
    },
    apn: '504-33-221',
    county: 'Maricopa',
    countyFipsCode: '04013',
    owners: [
      {
        name: { first: 'Ramon', last: 'Ortega', full: 'Ramon Ortega' },
        dnc: { tcpa: true },
        death: { deceased: false },
        litigator: false,
        bankruptcy: { bankruptcy: true, filingDate: '2024-06-11' },
        phoneNumbers: [
          {
            number: '6235550119',
            carrier: 'T-Mobile',
            type: 'Mobile',
            lastReportedDate: '2026-07-30',
            score: 88,
            tcpa: true,
            tested: true,
            dnc: false,
            reachable: true,
          },
          {
            number: '6235550166',
            carrier: 'Bandwidth',
            type: 'VoIP',
            lastReportedDate: '2024-12-01',
            score: 40,
            tcpa: false,
            tested: false,
            dnc: false,
            reachable: false,
          },
        ],
        emails: [
          { email: 'rortega@example.net', tested: true },
          { email: 'ramon.ortega77@example.com', tested: false },
        ],
        mailingAddress: { street: 'PO Box 1182', city: 'Goodyear', state: 'AZ', zip: '85338', hash: '7c2e19d4f0' },
        property: {
          owner: {
            name: { full: 'Ramon Ortega' },
            mailingAddress: { street: 'PO Box 1182', city: 'Goodyear', state: 'AZ', zip: '85338' },
          },
          address: {
            street: '25866 W Globe Ave',
            city: 'Buckeye',
            state: 'AZ',
            zip: '85326',
            county: 'Maricopa',
            houseNumber: '25866',
            streetNoUnit: '25866 W Globe Ave',
            formattedStreet: '25866 W Globe Ave',
            addressValidity: 'Valid',
          },
        },
      },
    ],
  },
  {
    address: {
      street: '742 Evergreen Ter',
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
      county: 'Sangamon',
      houseNumber: '742',
    },
    apn: '14-28-107-006',
    county: 'Sangamon',
    countyFipsCode: '17167',
    owners: [
      {
        name: { first: 'Walter', last: 'Kowalski', full: 'Walter Kowalski' },
        dnc: { tcpa: false },
        death: { deceased: true },
        litigator: true,
        bankruptcy: { bankruptcy: false, filingDate: null },
        phoneNumbers: [
          {
            number: '2175550190',
            carrier: 'AT&T',
            type: 'Land Line',
            lastReportedDate: '2023-02-17',
            score: 35,
            tcpa: false,
            tested: true,
            dnc: true,
            reachable: false,
          },
        ],
        emails: [],
        mailingAddress: {
          street: '742 Evergreen Ter',
          city: 'Springfield',
          state: 'IL',
          zip: '62704',
          hash: '0be4d1a9c3',
        },
        property: {
          owner: { name: { full: 'Walter Kowalski Estate' } },
          address: {
            street: '742 Evergreen Ter',
            city: 'Springfield',
            state: 'IL',
            zip: '62704',
            county: 'Sangamon',
            addressValidity: 'Valid',
          },
        },
      },
    ],
  },
];

/** Owners of properties no demo lead is linked to. */
const OTHER_OWNERS = [
  ['Grace', 'Holloway'],
  ['Victor', 'Ramos'],
  ['Irene', 'Castellano'],
  ['Desmond', 'Okafor'],
  ['Hazel', 'Lindqvist'],
  ['Rafael', 'Moreau'],
] as const;

/**
 * The owner of the k-th property of the demo Properties app. Leads link to the even-numbered properties
 * (lead k to property k), and such a property is owned by that lead; the others by OTHER_OWNERS. The
 * flags vary with k, so that some numbers are fine to call and others are not (DNC, TCPA, litigator,
 * deceased), as in real data.
 */
const ownedProperty = (k: number): DemoProperty => {
  const place = demoPropertyAddress(k);
  const lead = demoLeadName(k);
  const [first, last] = k % 2 === 0 ? [lead.first, lead.last] : OTHER_OWNERS[(k >> 1) % OTHER_OWNERS.length]!;
  const deceased = k % 11 === 9;
  const litigator = k % 7 === 3;
  const phones: PhoneNumber[] = [
    {
      number: `617555${String(2000 + k)}`,
      carrier: 'T-Mobile',
      type: 'Mobile',
      lastReportedDate: '2026-08-01',
      score: 90 - (k % 10),
      tcpa: k % 6 === 5,
      tested: true,
      dnc: k % 5 === 1,
      reachable: true,
    },
    ...(k % 2 === 0
      ? [
          {
            number: `781555${String(3000 + k)}`,
            carrier: 'Verizon',
            type: 'Land Line',
            lastReportedDate: '2024-11-20',
            score: 55,
            tcpa: false,
            tested: true,
            dnc: false,
            reachable: k % 4 !== 2,
          },
        ]
      : []),
  ];
  const address = { street: place.street, city: place.city, state: place.state, zip: place.zip };
  return {
    address: { ...address, county: place.county, houseNumber: place.street.split(' ')[0] },
    apn: `${place.fips.slice(-3)}-${String(100 + k).padStart(4, '0')}-${String(k * 13 + 7).padStart(3, '0')}`,
    county: place.county,
    countyFipsCode: place.fips,
    owners: [
      {
        name: { first, last, full: `${first} ${last}` },
        dnc: { tcpa: false },
        death: { deceased },
        litigator,
        bankruptcy: { bankruptcy: false, filingDate: null },
        phoneNumbers: phones,
        emails: [{ email: `${first}.${last}@example.com`.toLowerCase(), tested: true }],
        mailingAddress: { ...address, hash: `demo${k}` },
        property: {
          owner: { name: { full: `${first} ${last}` }, mailingAddress: address },
          address: { ...address, county: place.county, addressValidity: 'Valid' },
        },
      },
    ],
  };
};

/** Every property the demo skip tracer knows: each one of the Properties app, and a few elsewhere. */
export const demoProperties: readonly DemoProperty[] = [
  ...listedProperties,
  ...Array.from({ length: DEMO_PROPERTY_COUNT }, (_, k) => ownedProperty(k)),
];
