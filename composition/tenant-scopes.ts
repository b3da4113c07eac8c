import { DocumentReader } from '../ports/document-reader.js';
import type { Container, ServiceIdentifier } from 'inversify';
import { UrlFetcher } from '../ports/url-fetcher.js';
import { Hono } from 'hono';

/** Routes for a tenant's own Hono app, made once on first use. */
export const lazyRoutes = (mount: (app: Hono) => boolean): (() => Hono | undefined) => {
  let app: Hono | undefined;
  let made = false;
  return () => {
    if (!made) {
      made = true;
      const candidate = new Hono();
      if (mount(candidate)) app = candidate;
    }
    return app;
  };
};

/**
 * Adapters every tenant shares with the root rather than making its own: the URL guard (a connection
 * pool the gateway closes at shutdown) and the document reader (its cache of extracted text is keyed by
 * the bytes' hash, so one per process serves every tenant safely, within one bound).
 */
const SHARED_PORTS: readonly ServiceIdentifier<unknown>[] = [UrlFetcher, DocumentReader];

export const inheritShared = (child: Container, parent: Container): void => {
  for (const id of SHARED_PORTS) if (parent.isBound(id)) child.bind(id).toConstantValue(parent.get(id));
};
