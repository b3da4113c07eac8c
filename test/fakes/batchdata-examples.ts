import type { PropertyIdentity } from '../../domain/skiptrace/skip-trace.js';

// BatchData's published examples, served as they are by the tests of the skip tracer and of the stand-in, and
// the properties those tests look up.

// Verbatim from https://help.batchdata.io/en/articles/12879595-skiptrace-api-release-notes-november-2025
// ("Single Request with Non-US Address (V1 API)").
export const OFFICIAL_V1_NON_US_NO_MATCH = {
  status: { code: 200, text: 'OK' },
  results: {
    persons: [
      {
        propertyAddress: { street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' },
        meta: { matched: false, error: false },
      },
    ],
  },
};

// Verbatim from https://help.batchdata.io/en/articles/11880468-status-codes-in-http ("Error Response Format").
export const OFFICIAL_401 = { status: { code: 401, text: 'Unauthorized', message: 'Invalid token.' } };

export const TORONTO: PropertyIdentity = {
  kind: 'address',
  street: '145 Adelaide St W',
  city: 'Toronto',
  state: 'ON',
  zip: 'M5H 4',
};
export const ROSEGOLD: PropertyIdentity = {
  kind: 'address',
  street: '1011 Rosegold St',
  city: 'Franklin Square',
  state: 'NY',
  zip: '11010',
};
