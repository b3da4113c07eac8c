import type { UseCase } from '../runtime/define-tool.js';
import { hasPreview, type Previewable } from '../runtime/confirm.js';
import { E } from '../../domain/shared/fp.js';
import type { Vendor } from '../../ports/connection-store.js';
import type { ConnectionResolver } from './connection-resolver.js';

/**
 * A tool of a vendor-backed group: each call runs on the adapters of the caller's connection (see
 * ConnectionResolver). A refresh the vendor refused marks a stored connection, and the agent gets a link
 * for a person to connect again.
 */
export const connectedUseCase = <A>(
  vendor: Vendor,
  resolver: ConnectionResolver<A>,
  /** The tool's use case on a connection's adapters (which may still be loading: a promise is awaited). */
  useCaseOf: (adapters: A) => UseCase<unknown, unknown> | Promise<UseCase<unknown, unknown>>,
): UseCase<unknown, unknown> & Previewable<unknown> => ({
  // A dry run's or an approval's preview, on the caller's connection (a tool without one gets its arguments).
  preview: (params, context) => async () => {
    const resolved = await resolver.resolve(context.principal, vendor);
    if (E.isLeft(resolved)) return resolved;
    const useCase = await useCaseOf(resolved.right.adapters);
    if (hasPreview(useCase)) return useCase.preview(params, context)();
    return E.right({ summary: `run this call with ${JSON.stringify(params)}`, facts: {} });
  },
  execute: (params, context) => async () => {
    const resolved = await resolver.resolve(context.principal, vendor);
    if (E.isLeft(resolved)) return resolved;
    const outcome = await (await useCaseOf(resolved.right.adapters)).execute(params, context)();
    if (E.isLeft(outcome) && outcome.left._tag === 'UpstreamFailure' && outcome.left.reauthorize) {
      const refused = await resolver.refused(context.principal, vendor, resolved.right.connection);
      if (refused) return E.left(refused);
    }
    return outcome;
  },
});
