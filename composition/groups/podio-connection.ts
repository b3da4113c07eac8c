import type { Container, ServiceIdentifier } from 'inversify';
import { StoredRefreshingToken } from '../../adapters/outbound/http/stored-refreshing-token.js';
import { PodioClient } from '../../adapters/outbound/podio/podio-client.js';
import { podioRefresher } from '../../adapters/outbound/podio/podio-connector.js';
import { podioActiveProfile } from '../../adapters/outbound/podio/podio-active-profile.js';
import { PodioRecordApps } from '../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordComments } from '../../adapters/outbound/podio/podio-record-comments.js';
import { PodioRecordStore } from '../../adapters/outbound/podio/podio-record-store.js';
import { PodioSpaceDirectory } from '../../adapters/outbound/podio/podio-space-directory.js';
import { PodioOAuth, type PodioGrant } from '../../adapters/outbound/podio/podio-tokens.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { bindOnce, type ConnectionBinding, type SharedServices } from '../group-module.js';
import { podioConnectorOptions, type PodioConfig } from '../podio.js';

// The Podio adapters of the workspaces and records groups on one connection: imported by those groups on
// the first Podio connection, so that the memory mode never loads them (issue 39).

export const PodioClientToken = Symbol.for('PodioClient') as ServiceIdentifier<PodioClient>;

const grantOf = (signIn: Readonly<Record<string, string>> | undefined): PodioGrant | undefined => {
  if (signIn?.['appId'] !== undefined)
    return { kind: 'app', appId: signIn['appId'], appToken: signIn['appToken'] ?? '' };
  if (signIn?.['username'] !== undefined)
    return { kind: 'password', username: signIn['username'], password: signIn['password'] ?? '' };
  return undefined;
};

/**
 * The Podio client of one connection, bound once under PodioClientToken in the connection's container (an
 * override bound earlier wins), so that both Podio groups use the same client. A refresh token (stored,
 * or the environment's) is refreshed through the binding's token store under its lock; app and password
 * sign-ins sign in again with their own credentials wherever needed.
 */
export const podioClientFor = (
  container: Container,
  config: PodioConfig,
  shared: SharedServices,
  { connection, tokens }: ConnectionBinding,
): PodioClient => {
  bindOnce(container, PodioClientToken, () => {
    const grant = grantOf(connection.secret.signIn);
    const auth = grant
      ? new PodioOAuth({
          baseUrl: config.baseUrl,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          grant,
          clock: shared.clock,
          timeoutMs: shared.upstreamTimeoutMs,
          resilience: shared.resilience,
        })
      : new StoredRefreshingToken({
          vendor: 'Podio',
          store: tokens,
          refresh: podioRefresher(podioConnectorOptions(config, shared)),
          clock: shared.clock,
          lockWaitMs: shared.upstreamTimeoutMs,
        });
    return new PodioClient({
      baseUrl: config.baseUrl,
      auth,
      timeoutMs: shared.upstreamTimeoutMs,
      resilience: shared.resilience,
      clock: shared.clock,
    });
  });
  return container.get(PodioClientToken);
};

/** The workspaces group's port on one Podio connection. */
export const bindPodioWorkspaces = (
  container: Container,
  podio: PodioConfig,
  shared: SharedServices,
  binding: ConnectionBinding,
): void =>
  bindOnce(container, SpaceDirectory, () => new PodioSpaceDirectory(podioClientFor(container, podio, shared, binding)));

/** The records group's ports on one Podio connection. */
export const bindPodioRecords = (
  container: Container,
  podio: PodioConfig,
  timeZone: string,
  shared: SharedServices,
  binding: ConnectionBinding,
): void => {
  const client = () => podioClientFor(container, podio, shared, binding);
  // the store reads each record's app through the same app cache as RecordApps
  let apps: PodioRecordApps | undefined;
  const podioApps = () => (apps ??= new PodioRecordApps(client()));
  bindOnce(container, RecordApps, podioApps);
  bindOnce(container, RecordStore, () => new PodioRecordStore(client(), podioApps()));
  bindOnce(container, RecordComments, () => new PodioRecordComments(client()));
  bindOnce(container, RecordsSettings, () => ({ timeZone, activeProfileId: podioActiveProfile(client()) }));
};
