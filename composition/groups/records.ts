import type { Container } from 'inversify';
import { UrlFetchGuard } from '../../adapters/outbound/http/url-fetch-guard.js';
import { seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { isTimeZone } from '../../domain/records/values.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { UrlFetcher } from '../../ports/url-fetcher.js';
import { boolVar, enumVar, EnvVar, intVar } from '../env.js';
import { bindOnce, defineGroup, onFirstUse, type SharedServices } from '../group-module.js';
import { inMemoryPodioAccount } from '../podio-account.js';
import {
  podioConfigFrom,
  podioEnv,
  podioEnvironmentConnection,
  podioTenantConnector,
  type PodioConfig,
} from '../podio.js';

/** The Podio adapters, imported on the first Podio connection (podio-connection.ts). */
const podio = onFirstUse(() => import('./podio-connection.js'));

export interface RecordsConfig {
  readonly backend: { readonly kind: 'memory' } | { readonly kind: 'podio'; readonly podio: PodioConfig };
  readonly timeZone: string;
  readonly fetch: { readonly maxBytes: number; readonly timeoutMs: number; readonly allowPrivate: boolean };
}

const timeZoneVar = new EnvVar<string>(
  'timezone',
  'an IANA time zone such as UTC or America/New_York',
  (raw) =>
    raw === undefined ? { ok: true, value: 'UTC' } : isTimeZone(raw) ? { ok: true, value: raw } : { ok: false },
  'UTC',
);

/** The in-memory records backend of the shared in-memory Podio account (demo apps when demo data is on). */
const inMemoryRecords = (container: Container, shared: SharedServices, timeZone: string): InMemoryRecords => {
  const store = new InMemoryRecords({
    clock: shared.clock,
    account: inMemoryPodioAccount(container, shared.demoData),
    timeZone,
  });
  if (shared.demoData) seedDemoRecords(store);
  return store;
};

export const recordsGroup = defineGroup({
  name: 'records',
  env: {
    RECORDS_BACKEND: enumVar(['memory', 'podio'], 'memory').doc(
      'records tools: memory or podio (uses the PODIO_* variables).',
    ),
    RECORDS_TIMEZONE: timeZoneVar.doc(
      'IANA time zone of record timestamps in memory mode and of relative date filters (-30d, +0d).',
    ),
    RECORDS_FETCH_MAX_BYTES: intVar(1, 1073741824, 26214400).doc(
      'Largest file the gateway downloads for an attachment URL.',
    ),
    RECORDS_FETCH_TIMEOUT_MS: intVar(100, 600000, 15000).doc('Time limit of downloading an attachment URL.'),
    RECORDS_FETCH_ALLOW_PRIVATE: boolVar(false).doc(
      'Allow attachment URLs on loopback, private and link-local addresses (local development only).',
    ),
    // Declared (and documented) by the workspaces group; read here too.
    ...podioEnv,
  },
  configure: (v, problems): RecordsConfig => ({
    backend:
      v.RECORDS_BACKEND === 'podio'
        ? { kind: 'podio', podio: podioConfigFrom(v, problems, 'RECORDS_BACKEND=podio') }
        : { kind: 'memory' },
    timeZone: v.RECORDS_TIMEZONE,
    fetch: {
      maxBytes: v.RECORDS_FETCH_MAX_BYTES,
      timeoutMs: v.RECORDS_FETCH_TIMEOUT_MS,
      allowPrivate: v.RECORDS_FETCH_ALLOW_PRIVATE,
    },
  }),
  bind: (container, config, shared) => {
    bindOnce(container, UrlFetcher, () => new UrlFetchGuard(config.fetch));
    if (config.backend.kind !== 'memory') return;
    // One store serves the three records ports; made on first use, so overridden ports cost nothing.
    let store: InMemoryRecords | undefined;
    const memory = () => (store ??= inMemoryRecords(container, shared, config.timeZone));
    bindOnce(container, RecordApps, memory);
    bindOnce(container, RecordStore, memory);
    bindOnce(container, RecordComments, () => memory().commentsPort());
    bindOnce(container, RecordsSettings, () => {
      const account = inMemoryPodioAccount(container, shared.demoData);
      return { timeZone: config.timeZone, activeProfileId: () => TE.right(account.actingUser().profile_id) };
    });
  },
  vendor: 'podio',
  connector: (config, shared) =>
    config.backend.kind === 'memory' ? undefined : podioTenantConnector(config.backend.podio, shared),
  environmentConnection: (config) =>
    config.backend.kind === 'memory' ? undefined : podioEnvironmentConnection(config.backend.podio),
  bindConnection: async (container, config, shared, binding) => {
    if (config.backend.kind !== 'memory')
      (await podio()).bindPodioRecords(container, config.backend.podio, config.timeZone, shared, binding);
  },
  describe: (config) => config.backend.kind,
});
