// Calling a tool from the page and showing the answer: text answers as Markdown, structured ones as
// JSON, failures as the gateway's error code and message; the raw response on request.
import { byId, el, messageOf } from './dom.js';
import { inline, markdown } from './markdown.js';
import { signOut } from './sign-in.js';
import { state, type Tool } from './state.js';
import { targetUrl, updateTryButton } from './try-form.js';

/** The gateway's answer envelope, as far as the page reads it. */
interface Envelope {
  readonly success?: unknown;
  readonly data?: unknown;
  readonly encoding?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly details?: unknown };
}

const REASONS: Readonly<Record<string, string>> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Shows an answer; `status` is '-' when nothing was sent or nothing came back. */
const showAnswer = (
  status: number | string,
  text: string,
  parsed: Envelope | null,
  millis: number,
  requestId: string | null,
): void => {
  byId('answer').hidden = false;
  const ok = parsed && parsed.success === true;
  const line = byId('answer-status');
  line.className = ok ? 'ok' : 'fail';
  line.textContent =
    status +
    ' ' +
    (REASONS[String(status)] || (ok ? 'OK' : 'failed')) +
    ' · ' +
    millis +
    ' ms' +
    (requestId ? ' · request id ' + requestId : '');
  const body = byId('answer-body');
  body.textContent = '';
  if (!parsed) body.appendChild(el('pre', { text }));
  else if (parsed.success === true && typeof parsed.data === 'string' && parsed.encoding !== 'base64') {
    body.appendChild(markdown(parsed.data));
  } else if (parsed.success === true) {
    body.appendChild(el('pre', null, el('code', { text: JSON.stringify(parsed.data, null, 2) })));
  } else {
    const error = parsed.error || {};
    body.appendChild(
      el(
        'div',
        { className: 'error-box', role: 'alert' },
        el(
          'p',
          null,
          el('span', { className: 'code', text: String(error.code || 'ERROR') }),
          ' ',
          inline(String(error.message || text)),
        ),
        error.details && Object.keys(error.details).length
          ? el('pre', null, el('code', { text: JSON.stringify(error.details, null, 2) }))
          : null,
      ),
    );
  }
  let raw = text;
  try {
    raw = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    /* not JSON */
  }
  byId('answer-raw').textContent = raw;
};

/** Sends the request body to the tool with the caller's token. */
export const tryTool = async (tool: Tool): Promise<void> => {
  if (!state.token) return;
  const text = byId('request-body', HTMLTextAreaElement).value.trim();
  if (text) {
    try {
      JSON.parse(text);
    } catch (e) {
      const message = 'The request body is not valid JSON (' + messageOf(e) + '). Fix it and send again.';
      showAnswer('-', '', { success: false, error: { code: 'NOT_SENT', message } }, 0, '');
      return;
    }
  }
  state.busy = true;
  updateTryButton();
  const started = performance.now();
  const headers: Record<string, string> = { authorization: 'Bearer ' + state.token };
  if (text) headers['content-type'] = 'application/json';
  const url = targetUrl(tool);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: text || undefined,
      credentials: 'omit',
      cache: 'no-store',
    });
    const raw = await res.text();
    let parsed: Envelope | null = null;
    try {
      parsed = JSON.parse(raw) as Envelope | null;
    } catch {
      /* shown raw */
    }
    if (res.status === 401) signOut('The gateway refused the token (401). Sign in again.');
    if (state.current === tool.name) {
      showAnswer(res.status, raw, parsed, Math.round(performance.now() - started), res.headers.get('x-request-id'));
    }
  } catch (e) {
    if (state.current === tool.name) {
      const message = 'The request did not reach the gateway: ' + messageOf(e);
      showAnswer(
        '-',
        '',
        { success: false, error: { code: 'NETWORK_ERROR', message } },
        Math.round(performance.now() - started),
        '',
      );
    }
  }
  state.busy = false;
  updateTryButton();
};
