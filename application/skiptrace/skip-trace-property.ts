import { inject, injectable, optional } from 'inversify';
import {
  describeIdentity,
  doNotCallReasons,
  identifyProperty,
  rankPhones,
  type Person,
  type PhoneNumber,
  type PostalAddress,
  type PropertyIdentity,
  type SkipTraceResult,
} from '../../domain/skiptrace/skip-trace.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { SkipTracePolicy, SkipTracer } from '../../ports/skip-tracer.js';
import { described, nonEmptyUpTo, NonEmptyString, params, StateCode, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import type { Preview } from '../runtime/confirm.js';
import { fields, table } from '../runtime/markdown.js';
import { SkipTraceAnswer } from './skiptrace-results.js';

export const SkipTracePropertyParams = params(
  {},
  {
    street: described(
      NonEmptyString,
      'Street line of the property address, such as "1011 Rosegold St" (with zip "11010").',
    ),
    city: described(NonEmptyString, 'City of the property.'),
    state: described(StateCode, 'Two-letter state code, such as "NY".'),
    zip: described(NonEmptyString, 'ZIP code of the property.'),
    apn: described(NonEmptyString, 'Assessor parcel number, instead of the address.'),
    county: described(NonEmptyString, 'County name, used with apn.'),
    county_fips_code: described(NonEmptyString, 'Five-digit county FIPS code, used with apn.'),
    purpose: described(
      nonEmptyUpTo(200),
      'The GLBA/DPPA permissible purpose, such as "DPPA (b)(3)". Audited; some workspaces require it.',
    ),
  },
);
export type SkipTracePropertyParams = t.TypeOf<typeof SkipTracePropertyParams>;

export interface SkipTracePropertyResult {
  readonly identity: PropertyIdentity;
  readonly result: SkipTraceResult;
}

@injectable()
export class SkipTraceProperty implements UseCase<SkipTracePropertyParams, SkipTracePropertyResult> {
  constructor(
    @inject(SkipTracer) private readonly tracer: SkipTracer,
    @inject(SkipTracePolicy) @optional() private readonly policy?: SkipTracePolicy,
  ) {}

  execute(p: SkipTracePropertyParams, context?: CallContext): TaskEither<GatewayError, SkipTracePropertyResult> {
    if (p.purpose === undefined && context && this.policy?.purposeRequired(context.principal.tenant))
      return TE.left(
        invalidInput(
          'This workspace requires the permissible purpose of every skip trace: add purpose (GLBA/DPPA), such as "DPPA (b)(3): verify information the owner gave us".',
          'purpose',
          'string',
        ),
      );
    return pipe(
      TE.fromEither(identifyProperty(p)),
      TE.chain((identity) =>
        pipe(
          this.tracer.trace(identity),
          TE.map((result) => ({ identity, result })),
        ),
      ),
    );
  }

  /** What a person approves before the lookup (no vendor call: the preview itself costs nothing). */
  preview(p: SkipTracePropertyParams): TaskEither<GatewayError, Preview> {
    return pipe(
      TE.fromEither(identifyProperty(p)),
      TE.map((identity) => {
        const property = describeIdentity(identity);
        return {
          summary: `look up the owner of ${property} through BatchData: one lookup, billed if it matches`,
          facts: { property, lookups: 1, billed: 'per match', ...(p.purpose ? { purpose: p.purpose } : {}) },
        };
      }),
    );
  }
}

const address = (a: PostalAddress | undefined): string | undefined =>
  a
    ? [a.street, [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')]
        .filter(Boolean)
        .join(', ') || undefined
    : undefined;

const yes = (b: boolean | undefined): string => (b ? 'yes' : 'no');

/** The "OK to call" cell: yes, or no with every reason. */
const callVerdict = (person: Person, phone: PhoneNumber): string => {
  const reasons = doNotCallReasons(person, phone);
  return reasons.length ? `no: ${reasons.join('; ')}` : 'yes';
};

/**
 * BatchData's answer with the gateway's verdict on each phone beside BatchData's own members: `ok_to_call`
 * and, when false, `do_not_call_reasons` (the same verdict and words as the text's "OK to call" column).
 */
const withCallVerdicts = (result: SkipTraceResult): SkipTraceResult => ({
  ...result,
  results: {
    ...result.results,
    persons: result.results.persons.map((person) =>
      person.phoneNumbers
        ? {
            ...person,
            phoneNumbers: person.phoneNumbers.map((phone) => {
              const reasons = doNotCallReasons(person, phone);
              return {
                ...phone,
                ok_to_call: reasons.length === 0,
                ...(reasons.length ? { do_not_call_reasons: reasons } : {}),
              };
            }),
          }
        : person,
    ),
  },
});

const personText = (person: Person, index: number): string => {
  const name =
    person.name?.full ?? [person.name?.first, person.name?.middle, person.name?.last].filter(Boolean).join(' ');
  const flags = [
    person.death?.deceased ? 'deceased' : '',
    person.litigator ? 'known TCPA litigator: do not contact' : '',
    person.dnc?.tcpa ? 'on the TCPA list' : '',
    person.bankruptcy?.bankruptcy
      ? `bankruptcy${person.bankruptcy.filingDate ? ` filed ${person.bankruptcy.filingDate}` : ''}`
      : '',
  ].filter(Boolean);
  const phones = rankPhones(person.phoneNumbers ?? []);
  return [
    `### ${index + 1}. ${name || 'Owner (name unknown)'}`,
    flags.length ? `**Flags:** ${flags.join('; ')}` : '**Flags:** none (not deceased, not a litigator, no bankruptcy)',
    fields([
      ['Mailing address', address(person.mailingAddress)],
      ['Property', address(person.propertyAddress)],
    ]),
    phones.length
      ? table(
          ['phone', 'OK to call', 'type', 'carrier', 'score', 'reachable', 'DNC', 'TCPA', 'last reported'],
          phones.map((ph) => [
            ph.number,
            callVerdict(person, ph),
            ph.type,
            ph.carrier,
            ph.score,
            yes(ph.reachable),
            yes(ph.dnc),
            yes(ph.tcpa),
            ph.lastReportedDate,
          ]),
        )
      : 'No phone numbers found.',
    person.emails?.length
      ? `**Emails:** ${person.emails.map((e) => e.email + (e.tested ? ' (tested)' : '')).join(', ')}`
      : 'No email addresses found.',
  ]
    .filter(Boolean)
    .join('\n\n');
};

export const skipTracePropertyTool = defineTool({
  group: 'skiptrace',
  name: 'skipTraceProperty',
  title: 'Skip trace a property owner',
  description:
    'Finds the owner of a US property and how to reach them: phones ranked best first (type, carrier, DNC and TCPA flags), emails, mailing address, and litigator, deceased and bankruptcy flags. Give street with zip (or city and state), or apn with county and state (or county_fips_code). Each match is billed; no match (matched: false) is not. Respect the DNC and TCPA flags before calling.',
  annotations: { kind: 'Write', idempotent: true },
  params: SkipTracePropertyParams,
  useCase: SkipTraceProperty,
  result: SkipTraceAnswer,
  json: (r) => withCallVerdicts(r.result),
  text: ({ identity, result }) => {
    const matched = result.results.persons.filter((p) => p.meta.matched);
    const where = describeIdentity(identity);
    const counts = result.results.meta.results;
    if (matched.length === 0) {
      const error = result.results.persons.find((p) => p.meta.error)?.meta.errorMessage;
      return [
        `## Skip trace: ${where}`,
        error ? `The lookup failed for this property: ${error}` : 'No owner found for this property (not billed).',
        `Counts: ${counts.matchCount} matched, ${counts.noMatchCount} not matched, ${counts.errorCount} errors.`,
        'Check the spelling of the street and the ZIP code, or look the property up by apn with county and state.',
      ].join('\n\n');
    }
    return [
      `## Skip trace: ${where}`,
      `Found ${matched.length === 1 ? 'one owner' : `${matched.length} owners`} (request ${result.results.meta.requestId}).`,
      ...matched.map(personText),
    ].join('\n\n');
  },
});
