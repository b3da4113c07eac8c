import * as t from 'io-ts';
import { openObject } from '../runtime/results.js';

// skipTraceProperty's structured result is BatchData's own answer (their member names), so a caller that
// knows BatchData reads it as documented; the members agents rely on are named and typed here, and the rest
// of what BatchData sends is allowed.

const Phone = openObject(
  'Phone',
  { number: t.string },
  {
    type: t.string,
    carrier: t.string,
    score: t.number,
    dnc: t.boolean,
    tcpa: t.boolean,
    reachable: t.boolean,
    // the gateway's verdict (not BatchData's): may the number be called, and if not, why
    ok_to_call: t.boolean,
    do_not_call_reasons: t.array(t.string),
  },
);

const Person = openObject(
  'Person',
  { meta: openObject('PersonMeta', { matched: t.boolean }) },
  {
    name: openObject('PersonName', {}, { first: t.string, last: t.string, full: t.string }),
    phoneNumbers: t.array(Phone),
    emails: t.array(openObject('Email', { email: t.string })),
    litigator: t.boolean,
    dnc: openObject('Dnc', {}, { tcpa: t.boolean }),
    death: openObject('Death', {}, { deceased: t.boolean }),
    mailingAddress: openObject(
      'MailingAddress',
      {},
      { street: t.string, city: t.string, state: t.string, zip: t.string },
    ),
    propertyAddress: openObject(
      'PropertyAddress',
      {},
      { street: t.string, city: t.string, state: t.string, zip: t.string },
    ),
  },
);

export const SkipTraceAnswer = openObject('SkipTrace', {
  status: openObject('Status', { code: t.number, text: t.string }),
  results: openObject('Results', { persons: t.array(Person) }),
});
