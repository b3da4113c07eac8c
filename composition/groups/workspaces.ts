import { InMemorySpaceDirectory } from '../../adapters/outbound/memory/in-memory-space-directory.js';
import { PodioSpaceDirectory } from '../../adapters/outbound/podio/podio-space-directory.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { enumVar } from '../env.js';
import { bindOnce, defineGroup } from '../group-module.js';
import { inMemoryPodioAccount } from '../podio-account.js';
import { podioClient, podioConfigFrom, podioEnv, podioEnvironment, type PodioConfig } from '../podio.js';
import { bindPodioConnection, podioTenantConnector } from '../podio.js';

export type WorkspacesConfig = { readonly kind: 'memory' } | { readonly kind: 'podio'; readonly podio: PodioConfig };

/** The workspaces group; it also declares the PODIO_* variables that the records group reads. */
export const workspacesGroup = defineGroup({
  name: 'workspaces',
  environment: [['WORKSPACES_BACKEND', 'memory', 'workspaces tools: memory or podio.'], ...podioEnvironment],
  env: {
    WORKSPACES_BACKEND: enumVar(['memory', 'podio'], 'memory'),
    ...podioEnv,
  },
  configure: (v, problems): WorkspacesConfig =>
    v.WORKSPACES_BACKEND === 'podio'
      ? { kind: 'podio', podio: podioConfigFrom(v, problems, 'WORKSPACES_BACKEND=podio') }
      : { kind: 'memory' },
  bind: (container, config, shared) =>
    bindOnce(container, SpaceDirectory, () =>
      config.kind === 'memory'
        ? new InMemorySpaceDirectory(inMemoryPodioAccount(container, shared.demoData), shared.clock)
        : new PodioSpaceDirectory(podioClient(container, config.podio, shared)),
    ),
  vendor: 'podio',
  connector: (config, shared) => (config.kind === 'memory' ? undefined : podioTenantConnector(config.podio, shared)),
  bindConnection: (container, config, shared, binding) => {
    if (config.kind === 'memory') return;
    bindPodioConnection(container, config.podio, shared, binding);
    workspacesGroup.bind(container, config, shared);
  },
  describe: (config) => config.kind,
});
