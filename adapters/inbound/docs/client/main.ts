// The reference page's script (served at /docs, bundled by esbuild: ../docs-script.ts). It reads
// GET /v1/tools, keeps the caller's token in sessionStorage, and calls tools with it. Everything it shows
// is built with DOM calls and textContent (never innerHTML), so tool text cannot inject markup.
import { byId, el, messageOf } from './dom.js';
import { renderNav } from './nav.js';
import { renderSignIn, showSignInError, signIn, signOut } from './sign-in.js';
import { api, state, TOKEN_KEY, type Tool } from './state.js';
import { route } from './tool-page.js';

/** The prefilled bodies; without them the page derives bodies from the schemas. */
const loadExamples = async (): Promise<void> => {
  try {
    const res = await fetch(api('docs/try-examples.json'), { credentials: 'omit' });
    if (!res.ok) return;
    const body = (await res.json()) as {
      examples?: Record<string, unknown>;
      needs_earlier_call?: Record<string, string>;
    };
    state.examples = body.examples ?? {};
    state.needsEarlierCall = body.needs_earlier_call ?? {};
  } catch {
    /* the schemas' bodies instead */
  }
};

const loadTools = async (): Promise<void> => {
  await loadExamples();
  try {
    const res = await fetch(api('v1/tools'), { credentials: 'omit' });
    if (!res.ok) throw new Error('GET /v1/tools answered ' + res.status);
    const body = (await res.json()) as { data: { tools: Tool[] } };
    state.tools = body.data.tools;
    state.tools.forEach((t) => state.byName.set(t.name, t));
    state.tools.forEach((t) => {
      if (state.groups.indexOf(t.group) < 0) state.groups.push(t.group);
    });
    document.body.setAttribute('data-tools-loaded', String(state.tools.length));
    route();
    renderSignIn();
    let saved: string | null = null;
    try {
      saved = sessionStorage.getItem(TOKEN_KEY);
    } catch {
      /* storage unavailable */
    }
    if (saved) void signIn(saved, true);
  } catch (e) {
    const list = byId('tool-list');
    list.textContent = '';
    list.appendChild(
      el('p', { className: 'error', role: 'alert', text: 'Could not load the tool list: ' + messageOf(e) }),
    );
  }
};

const start = (): void => {
  byId('signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const token = byId('token', HTMLInputElement).value.trim();
    if (!token) {
      showSignInError('Enter a token first.');
      return;
    }
    void signIn(token, false);
  });
  byId('signout-button').addEventListener('click', () => {
    signOut('');
    byId('token').focus();
  });
  byId('filter').addEventListener('input', renderNav);
  window.addEventListener('hashchange', route);
  void loadTools();
};

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
