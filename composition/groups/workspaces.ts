import { InMemorySpaceDirectory } from '../../adapters/outbound/memory/in-memory-space-directory.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { enumVar } from '../env.js';
import { bindOnce, defineGroup, onFirstUse } from '../group-module.js';
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

export type WorkspacesConfig = { readonly kind: 'memory' } | { readonly kind: 'podio'; readonly podio: PodioConfig };

/** The workspaces group; it also declares the PODIO_* variables that the records group reads. */
export const workspacesGroup = defineGroup({
  name: 'workspaces',
  env: {
    WORKSPACES_BACKEND: enumVar(['memory', 'podio'], 'memory').doc('workspaces tools: memory or podio.'),
    ...podioEnv,
  },
  configure: (v, problems): WorkspacesConfig =>
    v.WORKSPACES_BACKEND === 'podio'
      ? { kind: 'podio', podio: podioConfigFrom(v, problems, 'WORKSPACES_BACKEND=podio') }
      : { kind: 'memory' },
  bind: (container, config, shared) => {
    if (config.kind === 'memory')
      bindOnce(
        container,
        SpaceDirectory,
        () => new InMemorySpaceDirectory(inMemoryPodioAccount(container, shared.demoData), shared.clock),
      );
  },
  vendor: 'podio',
  connector: (config, shared) => (config.kind === 'memory' ? undefined : podioTenantConnector(config.podio, shared)),
  environmentConnection: (config) => (config.kind === 'memory' ? undefined : podioEnvironmentConnection(config.podio)),
  bindConnection: async (container, config, shared, binding) => {
    if (config.kind !== 'memory') (await podio()).bindPodioWorkspaces(container, config.podio, shared, binding);
  },
  describe: (config) => config.kind,
});
