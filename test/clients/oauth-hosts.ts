// Agent hosts built on the official SDK clients' own OAuth (v1 @modelcontextprotocol/sdk, v2
// @modelcontextprotocol/client), for the matrix's step-up runs (step-up.ts). Each host keeps one server's
// registration, tokens and PKCE verifier in memory (the SDK's OAuthClientProvider), starts with no token,
// and when the SDK sends the person to sign in (at connect, or later for a scope the token lacks), does what
// a host does: has the person sign in and consent (person.ts), hands the SDK the code (finishAuth), and
// tries the request once more. The registration request the SDK sends is recorded, to show its scope.

import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { auth as v1Auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { signInAndConsent } from './person.js';
import { outcomeOf, type Session } from './sequence.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** The host's store for one server, as both SDK versions ask for it. */
class HostStore {
  client: unknown;
  saved: { access_token: string; scope?: string } | undefined;
  verifier = '';
  /** Where the SDK last sent the person, not yet visited. */
  pending: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'Matrix step-up host',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(info: unknown) {
    this.client = info;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: { access_token: string; scope?: string }) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.pending = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What a host session tells the matrix besides the Session calls. */
export interface OAuthSession extends Session {
  /** The `scope` of each registration request the client sent. */
  readonly registeredWith: readonly (string | undefined)[];
  /** How many times the person was sent to sign in and consent. */
  readonly signIns: () => number;
  /** The scope of the token the host holds now. */
  readonly tokenScope: () => string | undefined;
  /** How many step-ups the host had to start itself (SDK v1 does not start one). */
  readonly hostStepUps: () => number;
}

interface Sdk {
  connect(
    url: string,
    store: HostStore,
    fetchFn: typeof fetch,
  ): Promise<{
    client: { listTools(): Promise<{ tools: { name: string }[] }>; callTool(p: unknown): Promise<unknown> };
    finishAuth(callback: URL): Promise<void>;
    close(): Promise<void>;
  }>;
}

const v1: Sdk = {
  connect: async (url, store, fetchFn) => {
    const transport = new V1Transport(new URL(url), { authProvider: store as never, fetch: fetchFn });
    const client = new V1Client({ name: 'matrix-step-up-v1', version: '1.0.0' });
    const finishAuth = (callback: URL) => transport.finishAuth(callback.searchParams.get('code') ?? '');
    try {
      await client.connect(transport);
    } catch (e) {
      throw Object.assign(e as Error, { finishAuth });
    }
    return { client: client as never, finishAuth, close: () => client.close() };
  },
};

const v2 = (mode: 'auto' | 'legacy'): Sdk => ({
  connect: async (url, store, fetchFn) => {
    const transport = new V2Transport(new URL(url), { authProvider: store as never, fetch: fetchFn });
    const client = new V2Client(
      { name: `matrix-step-up-v2-${mode}`, version: '1.0.0' },
      { versionNegotiation: { mode } },
    );
    const finishAuth = (callback: URL) => transport.finishAuth(callback.searchParams);
    try {
      await client.connect(transport);
    } catch (e) {
      throw Object.assign(e as Error, { finishAuth });
    }
    return { client: client as never, finishAuth, close: () => client.close() };
  },
});

/**
 * A host on one SDK version, signing in with `key` whenever the SDK sends the person. Each request is tried
 * at most three times (the first, then after each sign-in).
 */
export const oauthHost =
  (url: string, key: string, version: 'v1' | 'v2 auto' | 'v2 legacy') => async (): Promise<OAuthSession> => {
    const sdk = version === 'v1' ? v1 : v2(version === 'v2 auto' ? 'auto' : 'legacy');
    const store = new HostStore();
    const registeredWith: (string | undefined)[] = [];
    let signIns = 0;
    let v1StepUps = 0;
    const recording: typeof fetch = async (input, init) => {
      const target = input instanceof Request ? input.url : String(input);
      if (new URL(target).pathname === '/register' && typeof init?.body === 'string')
        registeredWith.push((JSON.parse(init.body) as { scope?: string }).scope);
      return fetch(input, init);
    };
    /** The person signs in where the SDK sent them; the SDK gets the code. */
    const signIn = async (finishAuth: (callback: URL) => Promise<void>) => {
      const to = store.pending;
      store.pending = undefined;
      if (!to) return false;
      signIns++;
      const callback = await signInAndConsent(to.href, key);
      if (!callback.searchParams.get('code'))
        throw new Error(`the sign-in ended without a code: ${callback.searchParams.toString()}`);
      await finishAuth(callback);
      return true;
    };
    let connected: Awaited<ReturnType<Sdk['connect']>> | undefined;
    for (let attempt = 0; !connected; attempt++) {
      try {
        connected = await sdk.connect(url, store, recording);
      } catch (e) {
        const finishAuth = (e as { finishAuth?: (callback: URL) => Promise<void> }).finishAuth;
        if (attempt >= 2 || !finishAuth || !(await signIn(finishAuth))) throw e;
      }
    }
    const session = connected;
    /**
     * SDK v1 (1.32.2) answers a 403 insufficient_scope by refreshing its token (a refresh sends no scope, so
     * the new token has the old scope) and then throws "Server returned 403 after trying upscoping": it never
     * sends the person back to consent by itself. A v1 host does it with the SDK's public `auth()`: it drops
     * the held tokens and authorizes again without a scope, so the SDK asks for the protected resource's
     * `scopes_supported`, and the person consents to what the key allows.
     */
    const v1Reauthorize = async (error: unknown) => {
      if (version !== 'v1' || !String((error as Error)?.message).includes('403')) return false;
      store.saved = undefined;
      return (await v1Auth(store as never, { serverUrl: url, fetchFn: recording })) === 'REDIRECT';
    };
    const authorized = async <T>(act: () => Promise<T>): Promise<T> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await act();
        } catch (e) {
          if (attempt >= 2) throw e;
          if (!store.pending && (await v1Reauthorize(e))) v1StepUps++;
          if (!(await signIn(session.finishAuth))) throw e;
        }
      }
    };
    return {
      list: async () => (await authorized(() => session.client.listTools())).tools.map((t) => t.name),
      call: (name, args) => outcomeOf(authorized(() => session.client.callTool({ name, arguments: args }))),
      close: () => session.close(),
      registeredWith,
      signIns: () => signIns,
      tokenScope: () => store.saved?.scope,
      hostStepUps: () => v1StepUps,
    };
  };
