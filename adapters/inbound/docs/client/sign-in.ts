// Signing in with a bearer token: GET /v1/tools?callable=true checks it and says which tools it may
// call. The token is kept for the tab in sessionStorage; a refused token signs the caller out.
import { append, byId, el, messageOf } from './dom.js';
import { renderNav } from './nav.js';
import { api, state, TOKEN_KEY } from './state.js';
import { updateTryButton } from './try-form.js';

interface CallableAnswer {
  readonly success?: boolean;
  readonly data: { readonly tools: readonly { readonly name: string }[] };
  readonly error?: { readonly message?: string };
}

export const renderSignIn = (): void => {
  const signedIn = Boolean(state.token);
  byId('signin-form').hidden = signedIn;
  byId('signed-in').hidden = !signedIn;
  if (state.token) {
    const callable = state.callable ? state.callable.size : state.tools.length;
    const status = byId('signin-status');
    status.textContent = '';
    append(status, [
      el('span', { className: 'ok', text: 'Signed in. ' }),
      'Token ending "' + state.token.slice(-4) + '" may call ' + callable + ' of ' + state.tools.length + ' tools.',
    ]);
  }
  renderNav();
  updateTryButton();
};

export const showSignInError = (message: string): void => {
  const node = byId('signin-error');
  node.textContent = message;
  node.hidden = !message;
};

export const signOut = (message?: string): void => {
  state.token = null;
  state.callable = null;
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable */
  }
  showSignInError(message || '');
  renderSignIn();
};

/** Checks the token with the gateway; `quiet` when it is the tab's saved token rather than one just typed. */
export const signIn = async (token: string, quiet: boolean): Promise<void> => {
  showSignInError('');
  byId('signin-button', HTMLButtonElement).disabled = true;
  try {
    const res = await fetch(api('v1/tools?callable=true'), {
      headers: { authorization: 'Bearer ' + token },
      credentials: 'omit',
      cache: 'no-store',
    });
    const body = (await res.json().catch(() => null)) as CallableAnswer | null;
    if (res.ok && body && body.success) {
      state.token = token;
      state.callable = new Set(body.data.tools.map((t) => t.name));
      try {
        sessionStorage.setItem(TOKEN_KEY, token);
      } catch {
        /* kept in memory only */
      }
      byId('token', HTMLInputElement).value = '';
    } else {
      const why =
        body && body.error && body.error.message ? body.error.message : 'The gateway answered ' + res.status + '.';
      signOut(quiet ? 'Your saved token was refused; sign in again.' : why);
    }
  } catch (e) {
    showSignInError('Could not reach the gateway: ' + messageOf(e));
  }
  byId('signin-button', HTMLButtonElement).disabled = false;
  renderSignIn();
};
