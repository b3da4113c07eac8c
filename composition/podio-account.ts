import type { Container, ServiceIdentifier } from 'inversify';
import { InMemoryPodioAccount } from '../adapters/outbound/memory/in-memory-podio-account.js';
import { bindOnce } from './group-module.js';

/** The one in-memory Podio account that the records and workspaces groups share in memory mode. */
export const InMemoryPodioAccountToken = Symbol.for('InMemoryPodioAccount') as ServiceIdentifier<InMemoryPodioAccount>;

export const inMemoryPodioAccount = (container: Container, demoData: boolean): InMemoryPodioAccount => {
  bindOnce(container, InMemoryPodioAccountToken, () =>
    demoData ? InMemoryPodioAccount.withDemoData() : InMemoryPodioAccount.empty(),
  );
  return container.get(InMemoryPodioAccountToken);
};
