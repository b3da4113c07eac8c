import { E, type Either } from '../shared/fp.js';
import { invalidInput, type InvalidInput } from '../shared/errors.js';

/** How a property is identified: by postal address, or by parcel number (APN) within a county. */
export type PropertyIdentity =
  | {
      readonly kind: 'address';
      readonly street: string;
      readonly city?: string;
      readonly state?: string;
      readonly zip?: string;
    }
  | {
      readonly kind: 'apn';
      readonly apn: string;
      readonly county?: string;
      readonly countyFipsCode?: string;
      readonly state?: string;
    };

export interface PropertyLookup {
  readonly street?: string;
  readonly city?: string;
  readonly state?: string;
  readonly zip?: string;
  readonly apn?: string;
  readonly county?: string;
  readonly county_fips_code?: string;
}

const filled = (s: string | undefined): string | undefined => (s && s.trim() ? s.trim() : undefined);

const WHAT_IS_NEEDED =
  'Identify the property by address (street with zip, or street with city and state) or by parcel number (apn with county or county_fips_code).';

/**
 * Chooses how to identify the property. An APN with its county is the most precise key, so it wins when
 * both are given; otherwise a usable address; anything else is an error that says what is needed.
 */
export const identifyProperty = (input: PropertyLookup): Either<InvalidInput, PropertyIdentity> => {
  const street = filled(input.street);
  const city = filled(input.city);
  const state = filled(input.state)?.toUpperCase();
  const zip = filled(input.zip);
  const apn = filled(input.apn);
  const county = filled(input.county);
  const countyFipsCode = filled(input.county_fips_code);

  if (apn && (county || countyFipsCode)) {
    return E.right({ kind: 'apn', apn, county, countyFipsCode, state });
  }
  if (street && (zip || (city && state))) {
    return E.right({ kind: 'address', street, city, state, zip });
  }
  if (apn) {
    return E.left(
      invalidInput(
        `An apn needs its county: add "county" (with "state") or "county_fips_code". ${WHAT_IS_NEEDED}`,
        'county',
        'string',
      ),
    );
  }
  if (street) {
    return E.left(
      invalidInput(`A street alone is ambiguous: add "zip", or "city" and "state". ${WHAT_IS_NEEDED}`, 'zip', 'string'),
    );
  }
  return E.left(invalidInput(`No property given. ${WHAT_IS_NEEDED}`, 'street', 'string'));
};

export const describeIdentity = (id: PropertyIdentity): string =>
  id.kind === 'address'
    ? [id.street, [id.city, [id.state, id.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')]
        .filter(Boolean)
        .join(', ')
    : `APN ${id.apn} (${id.countyFipsCode ? `county FIPS ${id.countyFipsCode}` : [id.county, id.state].filter(Boolean).join(', ')})`;

// ---- The result, shaped like BatchData's V1 property skip-trace response. ----

export interface PersonName {
  readonly first?: string;
  readonly last?: string;
  readonly middle?: string;
  readonly full?: string;
}

export interface PhoneNumber {
  readonly number: string;
  readonly carrier?: string;
  /** Mobile, Land Line, VoIP... */
  readonly type?: string;
  readonly lastReportedDate?: string;
  readonly score?: number;
  readonly tcpa?: boolean;
  readonly tested?: boolean;
  readonly dnc?: boolean;
  readonly reachable?: boolean;
}

export interface EmailAddress {
  readonly email: string;
  readonly tested?: boolean;
}

export interface PostalAddress {
  readonly street?: string;
  readonly city?: string;
  readonly state?: string;
  readonly zip?: string;
  readonly county?: string;
  readonly hash?: string;
  readonly houseNumber?: string;
  readonly streetNoUnit?: string;
  readonly formattedStreet?: string;
  readonly addressValidity?: string;
  readonly unitType?: string;
  readonly unitNumber?: string;
  readonly zipPlus4?: string;
}

export interface Person {
  readonly name?: PersonName;
  readonly meta: { readonly matched: boolean; readonly error: boolean; readonly errorMessage?: string };
  readonly dnc?: { readonly tcpa: boolean };
  readonly death?: { readonly deceased: boolean };
  readonly litigator?: boolean;
  readonly bankruptcy?: { readonly bankruptcy: boolean; readonly filingDate: string | null };
  /** Ranked best first. */
  readonly phoneNumbers?: readonly PhoneNumber[];
  readonly emails?: readonly EmailAddress[];
  readonly property?: {
    readonly owner?: { readonly name?: PersonName; readonly mailingAddress?: PostalAddress };
    readonly address?: PostalAddress;
  };
  readonly mailingAddress?: PostalAddress;
  readonly propertyAddress?: PostalAddress;
}

export interface SkipTraceMeta {
  readonly apiVersion: string;
  readonly performance: { readonly startTime: string; readonly endTime: string; readonly totalRequestTime: number };
  readonly requestId: string;
  readonly results: {
    readonly errorCount: number;
    readonly matchCount: number;
    readonly noMatchCount: number;
    readonly requestCount: number;
  };
}

export interface SkipTraceResult {
  readonly results: { readonly meta: SkipTraceMeta; readonly persons: readonly Person[] };
  readonly status: { readonly code: number; readonly text: string };
}

export const isMatched = (r: SkipTraceResult): boolean => r.results.persons.some((p) => p.meta.matched);

/** Phones best first: highest score, then reachable, then mobile. */
export const rankPhones = (phones: readonly PhoneNumber[]): PhoneNumber[] =>
  [...phones].sort(
    (a, b) =>
      (b.score ?? 0) - (a.score ?? 0) ||
      Number(b.reachable ?? false) - Number(a.reachable ?? false) ||
      Number(/mobile/i.test(b.type ?? '')) - Number(/mobile/i.test(a.type ?? '')),
  );

/**
 * Why a number may not be called, in words (none: it may be): on the DNC list, flagged TCPA, known
 * unreachable, or its owner a known TCPA litigator, on the TCPA list, or deceased.
 */
export const doNotCallReasons = (
  person: Pick<Person, 'litigator' | 'dnc' | 'death'>,
  phone: PhoneNumber,
): readonly string[] =>
  [
    phone.dnc ? 'the number is on the Do Not Call list' : '',
    phone.tcpa ? 'the number is flagged under the TCPA' : '',
    phone.reachable === false ? 'the number is not reachable' : '',
    person.litigator ? 'the owner is a known TCPA litigator' : '',
    person.dnc?.tcpa ? 'the owner is on the TCPA list' : '',
    person.death?.deceased ? 'the owner is deceased' : '',
  ].filter(Boolean);

/** Whether a number may be called: no reason not to (doNotCallReasons). */
export const okToCall = (person: Pick<Person, 'litigator' | 'dnc' | 'death'>, phone: PhoneNumber): boolean =>
  doNotCallReasons(person, phone).length === 0;
