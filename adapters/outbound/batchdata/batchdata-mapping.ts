import { randomUUID } from 'node:crypto';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import {
  rankPhones,
  type EmailAddress,
  type Person,
  type PersonName,
  type PhoneNumber,
  type PostalAddress,
  type PropertyIdentity,
  type SkipTraceMeta,
  type SkipTraceResult,
} from '../../../domain/skiptrace/skip-trace.js';
import type { V1Address, V1Email, V1Name, V1Person, V1Phone, V1SkipTraceResponse } from './batchdata-codecs.js';

// A property as BatchData's skip-trace request, and BatchData's answer as the domain's result.

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** One item of `requests`, in one of the documented forms; FIPS wins over a county name when both are known. */
export const skipTraceRequest = (id: PropertyIdentity): Either<GatewayError, Record<string, unknown>> => {
  if (id.kind === 'address') {
    return E.right({ propertyAddress: compact({ street: id.street, city: id.city, state: id.state, zip: id.zip }) });
  }
  if (id.countyFipsCode) return E.right({ apn: id.apn, countyFipsCode: id.countyFipsCode });
  if (id.county) return E.right(compact({ apn: id.apn, county: id.county, state: id.state }));
  return E.left(
    invalidInput('An apn needs its county: add "county" (with "state") or "county_fips_code".', 'county', 'string'),
  );
};

const ADDRESS_FIELDS = [
  'street',
  'city',
  'state',
  'zip',
  'county',
  'hash',
  'houseNumber',
  'streetNoUnit',
  'formattedStreet',
  'addressValidity',
  'unitType',
  'unitNumber',
  'zipPlus4',
] as const;

const toAddress = (a: V1Address | undefined): PostalAddress | undefined => {
  if (!a) return undefined;
  const out: Record<string, string> = {};
  for (const k of ADDRESS_FIELDS) {
    const v = a[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
};

const toName = (n: V1Name | undefined): PersonName | undefined =>
  n ? compact({ first: n.first, middle: n.middle, last: n.last, full: n.full }) : undefined;

const toPhone = (p: V1Phone | undefined): PhoneNumber[] =>
  p?.number
    ? [
        compact({
          number: p.number,
          carrier: p.carrier,
          type: p.type,
          lastReportedDate: p.lastReportedDate,
          score: p.score,
          tcpa: p.tcpa,
          tested: p.tested,
          dnc: p.dnc,
          reachable: p.reachable,
        }),
      ]
    : [];

const toEmail = (e: V1Email | undefined): EmailAddress[] => {
  if (typeof e === 'string') return e.trim() ? [{ email: e }] : [];
  const email = e?.email ?? e?.address;
  return email ? [compact({ email, tested: e?.tested })] : [];
};

const toPerson = (p: V1Person): Person => {
  const error = p.meta?.error ?? false;
  const hasContactData = Boolean(p.name || p.phoneNumbers?.length || p.emails?.length);
  const owner = p.property?.owner;
  const propertyOwner = owner
    ? compact({ name: toName(owner.name), mailingAddress: toAddress(owner.mailingAddress) })
    : undefined;
  return compact({
    name: toName(p.name),
    meta: compact({
      matched: p.meta?.matched ?? (!error && hasContactData),
      error,
      errorMessage: p.meta?.errorMessage ?? p.meta?.message,
    }),
    dnc: p.dnc?.tcpa === undefined ? undefined : { tcpa: p.dnc.tcpa },
    death: p.death?.deceased === undefined ? undefined : { deceased: p.death.deceased },
    litigator: p.litigator,
    bankruptcy: p.bankruptcy
      ? {
          bankruptcy: p.bankruptcy.bankruptcy ?? Boolean(p.bankruptcy.filingDate),
          filingDate: p.bankruptcy.filingDate ?? null,
        }
      : undefined,
    phoneNumbers: p.phoneNumbers ? rankPhones(p.phoneNumbers.flatMap(toPhone)) : undefined,
    emails: p.emails ? p.emails.flatMap(toEmail) : undefined,
    property: p.property ? compact({ owner: propertyOwner, address: toAddress(p.property.address) }) : undefined,
    mailingAddress: toAddress(p.mailingAddress),
    propertyAddress: toAddress(p.propertyAddress),
  });
};

/** The property as the caller gave it, for a miss that came back without any person. */
const noMatch = (id: PropertyIdentity): Person => ({
  propertyAddress:
    id.kind === 'address'
      ? compact({ street: id.street, city: id.city, state: id.state, zip: id.zip })
      : compact({ county: id.county, state: id.state }),
  meta: { matched: false, error: false },
});

export const toResult = (
  body: V1SkipTraceResponse,
  identity: PropertyIdentity,
  startedAt: Date,
  endedAt: Date,
): SkipTraceResult => {
  const decodedPersons = body.results.persons.map(toPerson);
  const persons = decodedPersons.length ? decodedPersons : [noMatch(identity)];
  const meta = body.results.meta;
  const given = meta?.results;
  const errorCount = persons.filter((p) => p.meta.error).length;
  const matchCount = persons.filter((p) => p.meta.matched && !p.meta.error).length;
  const perf = meta?.performance;
  const results: SkipTraceMeta = {
    apiVersion: meta?.apiVersion ?? 'v1',
    performance:
      perf?.startTime !== undefined && perf.endTime !== undefined && perf.totalRequestTime !== undefined
        ? { startTime: perf.startTime, endTime: perf.endTime, totalRequestTime: perf.totalRequestTime }
        : {
            startTime: startedAt.toISOString(),
            endTime: endedAt.toISOString(),
            totalRequestTime: endedAt.getTime() - startedAt.getTime(),
          },
    requestId: meta?.requestId ?? randomUUID(),
    results: {
      requestCount: given?.requestCount ?? 1,
      matchCount: given?.matchCount ?? matchCount,
      noMatchCount: given?.noMatchCount ?? persons.length - matchCount - errorCount,
      errorCount: given?.errorCount ?? errorCount,
    },
  };
  return {
    status: { code: body.status.code, text: body.status.text ?? 'OK' },
    results: { meta: results, persons },
  };
};
