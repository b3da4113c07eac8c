import { createHmac } from 'node:crypto';
import type { Container } from 'inversify';
import { mountFileTransferRoutes } from '../../adapters/inbound/http/file-transfer-routes.js';
import { seedDemoFiles, demoIds } from '../../adapters/outbound/memory/demo/files.js';
import { HmacLinkSigner } from '../../adapters/outbound/memory/hmac-link-signer.js';
import { InMemoryItemStore } from '../../adapters/outbound/memory/in-memory-item-store.js';
import { InMemoryOutbox } from '../../adapters/outbound/memory/in-memory-outbox.js';
import { InMemoryShareStore } from '../../adapters/outbound/memory/in-memory-share-store.js';
import { Authenticator, DEFAULT_TENANT } from '../../ports/authenticator.js';
import { ShareDesk, UploadDesk } from '../../ports/file-transfers.js';
import { ItemStore } from '../../ports/item-store.js';
import { FileContents } from '../../ports/file-contents.js';
import { DocumentReader } from '../../ports/document-reader.js';
import { InMemoryFileContents } from '../../adapters/outbound/memory/files/in-memory-file-contents.js';
import { CachedDocumentReader } from '../../adapters/outbound/documents/cached-document-reader.js';
import { PooledDocumentReader } from '../../adapters/outbound/documents/pooled-document-reader.js';
import { LinkSigner } from '../../ports/link-signer.js';
import { ShareNotifier } from '../../ports/share-notifier.js';
import { ShareStore } from '../../ports/share-store.js';
import { boolVar, enumVar, intVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup, onFirstUse, type SharedServices } from '../group-module.js';
import { shareFileEnvironmentConnection, shareFileTenantConnector, type ShareFileConfig } from './files-sharefile.js';

/** The ShareFile adapters, imported on the first ShareFile connection (files-sharefile-connection.ts). */
const shareFile = onFirstUse(() => import('./files-sharefile-connection.js'));

export type FilesConfig =
  | { readonly kind: 'memory'; readonly signingSecret?: string; readonly maxUploadBytes: number }
  | ({ readonly kind: 'sharefile'; readonly maxUploadBytes: number } & ShareFileConfig);

/** The in-memory account, its shares and outbox: one set per container, shared by every port it serves. */
export const memoryFiles = (config: { signingSecret?: string; maxUploadBytes: number }, shared: SharedServices) => {
  // Each tenant signs with a key of its own, so a link of one tenant never opens another's file.
  const secret =
    config.signingSecret && shared.tenant !== DEFAULT_TENANT
      ? createHmac('sha256', config.signingSecret).update(`tenant\n${shared.tenant}`).digest('base64url')
      : config.signingSecret;
  const signer = new HmacLinkSigner(shared.publicBaseUrl, secret);
  const items = new InMemoryItemStore({
    clock: shared.clock,
    signer,
    maxUploadBytes: config.maxUploadBytes,
    ...(shared.demoData ? { newId: demoIds() } : {}),
  });
  if (shared.demoData) seedDemoFiles(items);
  const shares = new InMemoryShareStore({ clock: shared.clock, items, baseUrl: shared.publicBaseUrl });
  const outbox = new InMemoryOutbox(
    shared.clock,
    { name: `${items.user.firstName} ${items.user.lastName}`, email: items.user.email },
    (id, to) => shares.markSent(id, to),
  );
  return { signer, items, shares, outbox };
};

const bindMemory = (
  container: Container,
  config: { signingSecret?: string; maxUploadBytes: number },
  shared: SharedServices,
): void => {
  let set: ReturnType<typeof memoryFiles> | undefined;
  const mem = () => (set ??= memoryFiles(config, shared));
  bindOnce(container, LinkSigner, () => mem().signer);
  bindOnce(container, ItemStore, () => mem().items);
  bindOnce(container, UploadDesk, () => mem().items);
  bindOnce(container, ShareStore, () => mem().shares);
  bindOnce(container, ShareDesk, () => mem().shares);
  bindOnce(container, ShareNotifier, () => mem().outbox);
  bindOnce(container, FileContents, () => new InMemoryFileContents(mem().items));
};

export const filesGroup = defineGroup({
  name: 'files',
  env: {
    FILES_BACKEND: enumVar(['memory', 'sharefile'], 'memory').doc(
      'files tools: memory (demo account served by this gateway) or sharefile.',
    ),
    FILES_SIGNING_SECRET: optionalString.doc(
      'Secret that signs the upload, download and share addresses of memory mode. Several instances behind one URL need the same value, or links from one fail on another.',
      'random per process',
    ),
    FILES_MAX_UPLOAD_BYTES: intVar(1, Number.MAX_SAFE_INTEGER, 104_857_600).doc(
      'Largest file accepted by the upload addresses (memory mode) and by getUploadUrl (both modes); larger uploads are refused with nothing stored.',
    ),
    SHAREFILE_SUBDOMAIN: optionalString.doc(
      "The operator's ShareFile account subdomain (mycompany in mycompany.sharefile.com); required with SHAREFILE_REFRESH_TOKEN or SHAREFILE_ACCESS_TOKEN unless SHAREFILE_API_URL is set.",
    ),
    SHAREFILE_APICP: optionalString.doc(
      'ShareFile API control plane; the API is https://{subdomain}.{apicp}/sf/v3.',
      'sf-api.com',
    ),
    SHAREFILE_APPCP: optionalString.doc(
      'ShareFile app control plane; tokens are refreshed at https://{subdomain}.{appcp}/oauth/token.',
      'sharefile.com',
    ),
    SHAREFILE_CLIENT_ID: optionalString.doc(
      "The gateway's ShareFile OAuth app (with SHAREFILE_CLIENT_SECRET): tenants connect their own accounts through it, and refresh tokens are refreshed with it.",
    ),
    SHAREFILE_CLIENT_SECRET: optionalString.doc('ShareFile OAuth client secret.'),
    SHAREFILE_APP_NAME: optionalString.doc(
      "The gateway's ShareFile app as ShareFile names it to users (its registered name): deleting a ShareFile connection revokes the connected app of that name (or whose id is SHAREFILE_CLIENT_ID) for that user.",
    ),
    SHAREFILE_REFRESH_TOKEN: optionalString.doc(
      "OAuth refresh token of the operator's own account (needs the app): the default tenant's connection; access tokens are refreshed before they expire.",
    ),
    SHAREFILE_ACCESS_TOKEN: optionalString.doc(
      'A ShareFile access token to use as is for the default tenant (short-lived; for trying things out). The refresh token is preferred.',
    ),
    SHAREFILE_API_URL: urlVar().doc(
      'Override of the ShareFile API base URL (for a proxy or a stand-in).',
      'https://{subdomain}.{apicp}/sf/v3',
    ),
    SHAREFILE_OAUTH_URL: urlVar().doc('Override of the ShareFile OAuth base URL.', 'https://{subdomain}.{appcp}'),
    SHAREFILE_AUTHORIZE_URL: urlVar('https://secure.sharefile.com').doc(
      "Where a person signs in to approve the gateway's ShareFile app in the connect flow (with SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET).",
    ),
    FILES_FETCH_ALLOW_PRIVATE: boolVar(false).doc(
      "Let files_readFile download ShareFile's file addresses from loopback and private addresses (a local stand-in only).",
    ),
  },
  configure: (v, problems): FilesConfig => {
    const maxUploadBytes = v.FILES_MAX_UPLOAD_BYTES;
    if (v.FILES_BACKEND !== 'sharefile') {
      const secret = v.FILES_SIGNING_SECRET;
      if (secret !== undefined && secret.length < 16)
        problems.push('FILES_SIGNING_SECRET must be at least 16 characters.');
      return { kind: 'memory', maxUploadBytes, ...(secret ? { signingSecret: secret } : {}) };
    }
    const app =
      v.SHAREFILE_CLIENT_ID && v.SHAREFILE_CLIENT_SECRET
        ? {
            clientId: v.SHAREFILE_CLIENT_ID,
            clientSecret: v.SHAREFILE_CLIENT_SECRET,
            ...(v.SHAREFILE_APP_NAME ? { name: v.SHAREFILE_APP_NAME } : {}),
          }
        : undefined;
    if (Boolean(v.SHAREFILE_CLIENT_ID) !== Boolean(v.SHAREFILE_CLIENT_SECRET))
      problems.push('SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET go together.');
    const accessToken = v.SHAREFILE_ACCESS_TOKEN;
    const refreshToken = v.SHAREFILE_REFRESH_TOKEN;
    if (accessToken && refreshToken)
      problems.push('Set only one ShareFile sign-in: SHAREFILE_ACCESS_TOKEN or SHAREFILE_REFRESH_TOKEN.');
    if (refreshToken && !app)
      problems.push(
        'SHAREFILE_REFRESH_TOKEN needs the app that issued it: SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET.',
      );
    if (!app && !accessToken && !refreshToken)
      problems.push(
        "FILES_BACKEND=sharefile needs the gateway's ShareFile app (SHAREFILE_CLIENT_ID and SHAREFILE_CLIENT_SECRET) for tenants to connect, or an account of the operator's own (SHAREFILE_REFRESH_TOKEN or SHAREFILE_ACCESS_TOKEN).",
      );
    const subdomain = v.SHAREFILE_SUBDOMAIN;
    if (subdomain !== undefined && !/^[a-z0-9-]+$/i.test(subdomain))
      problems.push('SHAREFILE_SUBDOMAIN must be the bare subdomain (letters, digits, hyphens), such as mycompany.');
    if ((accessToken || refreshToken) && !subdomain && !v.SHAREFILE_API_URL)
      problems.push(
        "SHAREFILE_SUBDOMAIN is required with an account of the operator's own (the refresh or access token).",
      );
    const credential = accessToken
      ? ({ kind: 'static', accessToken } as const)
      : refreshToken
        ? ({ kind: 'oauth', refreshToken } as const)
        : undefined;
    const hosts = {
      subdomain: subdomain ?? 'unset',
      apicp: v.SHAREFILE_APICP ?? 'sf-api.com',
      appcp: v.SHAREFILE_APPCP ?? 'sharefile.com',
    };
    return {
      kind: 'sharefile',
      maxUploadBytes,
      ...(app ? { app } : {}),
      ...(credential ? { account: { hosts, credential } } : {}),
      authorizeUrl: v.SHAREFILE_AUTHORIZE_URL,
      fetchAllowPrivate: v.FILES_FETCH_ALLOW_PRIVATE,
      ...(v.SHAREFILE_API_URL ? { apiOverride: v.SHAREFILE_API_URL } : {}),
      ...(v.SHAREFILE_OAUTH_URL ? { oauthOverride: v.SHAREFILE_OAUTH_URL } : {}),
    };
  },
  bind: (container, config, shared) => {
    bindOnce(container, DocumentReader, () => new CachedDocumentReader(new PooledDocumentReader(shared.documents)));
    if (config.kind === 'memory') bindMemory(container, config, shared);
  },
  routes: (app, container, _config, shared) => {
    if (!container.isBound(UploadDesk) || !container.isBound(ShareDesk) || !container.isBound(LinkSigner)) return;
    mountFileTransferRoutes(app, {
      uploads: container.get(UploadDesk),
      shares: container.get(ShareDesk),
      signer: container.get(LinkSigner),
      clock: shared.clock,
      authenticator: container.get(Authenticator),
      tenant: shared.tenant,
    });
  },
  vendor: 'sharefile',
  connector: (config, shared) => (config.kind === 'memory' ? undefined : shareFileTenantConnector(config, shared)),
  environmentConnection: (config) => (config.kind === 'memory' ? undefined : shareFileEnvironmentConnection(config)),
  bindConnection: async (container, config, shared, binding) => {
    if (config.kind !== 'memory') (await shareFile()).bindShareFileConnection(container, config, shared, binding);
  },
  describe: (config) => config.kind,
});
