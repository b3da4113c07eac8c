import type { Person, PostalAddress } from '../../../../domain/skiptrace/skip-trace.js';

/** A property the demo skip tracer knows, with its owners in the result's shape. */
export interface DemoProperty {
  readonly address: PostalAddress & { street: string; city: string; state: string; zip: string };
  readonly apn: string;
  readonly county: string;
  readonly countyFipsCode: string;
  readonly owners: readonly Omit<Person, 'meta' | 'propertyAddress'>[];
}

export const demoProperties: readonly DemoProperty[] = [
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
