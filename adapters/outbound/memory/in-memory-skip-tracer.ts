import { randomUUID } from 'node:crypto';
import { normaliseStreet, normaliseZip, US_STATES } from '../../../domain/skiptrace/address.js';
import type { Person, PropertyIdentity, SkipTraceResult } from '../../../domain/skiptrace/skip-trace.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { SkipTracer } from '../../../ports/skip-tracer.js';
import { demoProperties, type DemoProperty } from './demo/skiptrace.js';

/** "Travis County" -> "travis"; a string scan, since /\s+county$/ is quadratic on long runs of spaces. */
const withoutCountyWord = (county: string): string => {
  if (!county.endsWith('county')) return county;
  const head = county.slice(0, -'county'.length);
  const trimmed = head.trimEnd();
  return trimmed.length < head.length ? trimmed : county;
};

const findProperty = (properties: readonly DemoProperty[], id: PropertyIdentity): DemoProperty | undefined => {
  if (id.kind === 'apn') {
    const apn = id.apn.replace(/[^0-9a-z]/gi, '');
    return properties.find(
      (p) =>
        p.apn.replace(/[^0-9a-z]/gi, '') === apn &&
        (id.countyFipsCode
          ? p.countyFipsCode === id.countyFipsCode
          : p.county.toLowerCase() === withoutCountyWord((id.county ?? '').toLowerCase())) &&
        (!id.state || p.address.state === id.state),
    );
  }
  if (id.state && !US_STATES.has(id.state)) return undefined;
  const street = normaliseStreet(id.street);
  return properties.find(
    (p) =>
      normaliseStreet(p.address.street) === street &&
      (id.zip
        ? normaliseZip(id.zip) === p.address.zip
        : p.address.city.toLowerCase() === id.city?.toLowerCase() && p.address.state === id.state),
  );
};

/** The property as the caller gave it, the way BatchData echoes it back on a miss. */
const inputAddress = (id: PropertyIdentity) =>
  id.kind === 'address'
    ? { street: id.street, city: id.city, state: id.state, zip: id.zip }
    : { county: id.county, state: id.state };

/** A skip tracer over the demo properties, answering in BatchData's V1 shape, including misses. */
export class InMemorySkipTracer implements SkipTracer {
  constructor(
    private readonly clock: Clock,
    private readonly properties: readonly DemoProperty[] = demoProperties,
  ) {}

  trace(identity: PropertyIdentity): TaskEither<GatewayError, SkipTraceResult> {
    const started = this.clock.now();
    const property = findProperty(this.properties, identity);
    const persons: Person[] = property
      ? property.owners.map((o) => ({
          ...o,
          propertyAddress: { ...property.address },
          meta: { matched: true, error: false },
        }))
      : [{ propertyAddress: inputAddress(identity), meta: { matched: false, error: false } }];
    const ended = this.clock.now();
    return TE.right({
      status: { code: 200, text: 'OK' },
      results: {
        persons,
        meta: {
          apiVersion: 'v1',
          requestId: randomUUID(),
          performance: {
            startTime: started.toISOString(),
            endTime: ended.toISOString(),
            totalRequestTime: ended.getTime() - started.getTime(),
          },
          results: { requestCount: 1, matchCount: property ? 1 : 0, noMatchCount: property ? 0 : 1, errorCount: 0 },
        },
      },
    });
  }
}
