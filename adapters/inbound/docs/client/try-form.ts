// The "Try it" form's derived parts: the URL it calls, the same call as curl, and whether the Send
// button may be pressed (with the reason when not).
import { byId, findById } from './dom.js';
import { api, mayCall, shortName, state, type Tool } from './state.js';

export const targetUrl = (tool: Tool): string =>
  api(
    'v1/tools/' +
      encodeURIComponent(tool.group) +
      '/' +
      encodeURIComponent(shortName(tool)) +
      (byId('format-json', HTMLInputElement).checked ? '?format=json' : ''),
  );

export const updateCurl = (): void => {
  const tool = state.current === null ? undefined : state.byName.get(state.current);
  const curl = findById('curl-example');
  if (!tool || !curl) return;
  const body = byId('request-body', HTMLTextAreaElement).value.trim() || '{}';
  let compact = body;
  try {
    compact = JSON.stringify(JSON.parse(body));
  } catch {
    /* shown as typed */
  }
  curl.textContent =
    "curl -s -X POST '" +
    targetUrl(tool) +
    "' \\\n  -H 'Authorization: Bearer $TOKEN' -H 'Content-Type: application/json' \\\n  -d '" +
    compact.replace(/'/g, "'\\''") +
    "'";
};

export const updateTryButton = (): void => {
  const button = findById('try-button', HTMLButtonElement);
  const reason = findById('try-reason');
  if (!button || !reason) return;
  const tool = state.current === null ? undefined : state.byName.get(state.current);
  const confirm = findById('confirm-destructive', HTMLInputElement);
  let why = '';
  if (!state.token) why = 'Sign in with a bearer token (top left) to try this tool.';
  else if (tool && !mayCall(tool)) why = 'Your token lacks the permission "' + tool.permission + '" this tool needs.';
  else if (state.busy) why = 'Sending...';
  else if (confirm && !confirm.checked) why = 'Tick the confirmation first: this tool deletes data.';
  button.disabled = why !== '';
  reason.textContent = why;
};
