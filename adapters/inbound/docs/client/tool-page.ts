// The main pane: an overview of the groups, or one tool (parameters, schema, the "Try it" form), chosen
// by the URL's fragment (#crm_getContact).
import { byId, el, findById } from './dom.js';
import { inline } from './markdown.js';
import { markCurrent } from './nav.js';
import { tryTool } from './call.js';
import { constraints, exampleBody, paramRows, typeLabel } from './schema.js';
import { kindOf, shortName, state, type Tool } from './state.js';
import { updateCurl, updateTryButton } from './try-form.js';

const badges = (tool: Tool): HTMLElement[] =>
  (tool.annotations || []).map((a) => el('span', { className: 'badge ' + a.toLowerCase(), text: a }));

const renderOverview = (): void => {
  const main = byId('tool-detail');
  main.textContent = '';
  const counts = state.groups.map((g): [string, number] => [g, state.tools.filter((t) => t.group === g).length]);
  main.appendChild(
    el(
      'article',
      { className: 'overview', 'aria-labelledby': 'overview-title' },
      el('h2', { id: 'overview-title', text: 'API reference' }),
      el(
        'p',
        null,
        state.tools.length + ' tools in ' + state.groups.length + ' groups. Every tool is called with ',
        el('code', { text: 'POST /v1/tools/{group}/{tool}' }),
        ', a JSON object of parameters as the body, and the header ',
        el('code', { text: 'Authorization: Bearer <token>' }),
        '. The answer is text written for a language model; add ',
        el('code', { text: '?format=json' }),
        ' for the structured payload.',
      ),
      el(
        'p',
        null,
        state.token
          ? 'You are signed in: pick a tool on the left and try it.'
          : 'Sign in with a bearer token (top left) to try tools from this page; the token stays in this browser tab.',
      ),
      el(
        'table',
        null,
        el('thead', null, el('tr', null, el('th', { text: 'Group' }), el('th', { text: 'Tools' }))),
        el(
          'tbody',
          null,
          counts.map(([group, count]) => {
            const first = state.tools.find((t) => t.group === group);
            return el(
              'tr',
              null,
              el('td', null, el('a', { href: '#' + (first ? first.name : ''), text: group })),
              el('td', { text: String(count) }),
            );
          }),
        ),
      ),
    ),
  );
};

const renderTool = (tool: Tool): void => {
  const main = byId('tool-detail');
  main.textContent = '';
  const rows = paramRows(tool.inputSchema, '', [], 0);
  const path = '/v1/tools/' + tool.group + '/' + shortName(tool);
  const destructive = kindOf(tool) === 'Destructive';

  const paramsBlock = rows.length
    ? el(
        'div',
        { className: 'table-wrap' },
        el(
          'table',
          { 'aria-label': 'Parameters of ' + tool.name },
          el(
            'thead',
            null,
            el(
              'tr',
              null,
              el('th', { text: 'Parameter' }),
              el('th', { text: 'Type' }),
              el('th', { text: 'Description' }),
            ),
          ),
          el(
            'tbody',
            null,
            rows.map((r) =>
              el(
                'tr',
                null,
                el(
                  'td',
                  { className: 'param' },
                  r.path,
                  r.required ? el('span', { className: 'req', text: 'required' }) : null,
                ),
                el('td', { className: 'type', text: typeLabel(r.schema) }),
                el(
                  'td',
                  null,
                  inline(r.schema.description || ''),
                  constraints(r.schema).length
                    ? el(
                        'span',
                        { className: 'constraints' },
                        constraints(r.schema).map(([label, value], i) => [
                          i ? ' · ' : '',
                          label,
                          el('code', { text: value }),
                        ]),
                      )
                    : null,
                ),
              ),
            ),
          ),
        ),
      )
    : el('p', { className: 'muted', text: 'This tool takes no parameters: send an empty body or {}.' });

  main.appendChild(
    el(
      'article',
      { 'aria-labelledby': 'tool-title' },
      el('p', { className: 'group-label', text: tool.group }),
      el('h2', { id: 'tool-title' }, el('code', { text: tool.name })),
      el('p', { className: 'tool-subtitle', text: tool.title }),
      el(
        'div',
        null,
        badges(tool),
        el('span', { className: 'badge permission', title: 'Permission needed', text: tool.permission }),
      ),
      el('div', { className: 'endpoint' }, el('span', { className: 'method', text: 'POST' }), path),
      el('div', { className: 'description' }, el('p', null, inline(tool.description))),
      el('h3', { text: 'Parameters' }),
      paramsBlock,
      el(
        'details',
        null,
        el('summary', { text: 'JSON Schema of the parameters' }),
        el('pre', null, el('code', { id: 'tool-schema', text: JSON.stringify(tool.inputSchema, null, 2) })),
      ),
      tryForm(rows.length > 0, destructive, state.needsEarlierCall[tool.name]),
    ),
  );

  const body = byId('request-body', HTMLTextAreaElement);
  const example = state.examples[tool.name];
  const setBody = (all: boolean): void => {
    body.value = !all && example !== undefined ? JSON.stringify(example, null, 2) : exampleBody(tool.inputSchema, all);
    body.rows = Math.min(18, Math.max(4, body.value.split('\n').length + 1));
    updateCurl();
  };
  body.addEventListener('input', updateCurl);
  findById('fill-all')?.addEventListener('click', () => setBody(true));
  byId('reset-body').addEventListener('click', () => setBody(false));
  byId('format-json').addEventListener('change', updateCurl);
  if (destructive) byId('confirm-destructive').addEventListener('change', updateTryButton);
  byId('try-button').addEventListener('click', () => void tryTool(tool));
  const rawToggle = byId('answer-raw-toggle', HTMLInputElement);
  rawToggle.addEventListener('change', () => {
    byId('answer-raw').hidden = !rawToggle.checked;
    byId('answer-body').hidden = rawToggle.checked;
  });
  setBody(false);
  updateTryButton();
};

/** The "Try it" section: request body, options, Send, the answer and the same call with curl. */
const tryForm = (hasParams: boolean, destructive: boolean, earlier: string | undefined): HTMLElement =>
  el(
    'section',
    { className: 'try', 'aria-labelledby': 'try-title' },
    el('h3', { id: 'try-title', text: 'Try it' }),
    el('label', { for: 'request-body', text: 'Request body (JSON)' }),
    el('textarea', { id: 'request-body', rows: 8, spellcheck: 'false', 'aria-describedby': 'body-hint' }),
    el(
      'p',
      { id: 'body-hint', className: 'hint' },
      earlier
        ? `Prefilled with a call on the demo data; its id comes from an earlier call: call ${earlier} first and put the id it answers here. `
        : hasParams
          ? 'Prefilled with a call that works on the demo data; the table above lists the other parameters. '
          : 'No parameters needed. ',
      hasParams
        ? el('button', { type: 'button', id: 'fill-all', className: 'link', text: 'Fill in every parameter' })
        : null,
      el('button', { type: 'button', id: 'reset-body', className: 'link', text: 'Reset' }),
    ),
    el(
      'div',
      { className: 'try-row' },
      el(
        'label',
        null,
        el('input', { type: 'checkbox', id: 'format-json' }),
        ' Structured JSON (',
        el('code', { text: '?format=json' }),
        ')',
      ),
      destructive
        ? el(
            'label',
            null,
            el('input', { type: 'checkbox', id: 'confirm-destructive' }),
            ' I understand this deletes data',
          )
        : null,
      el('button', {
        type: 'button',
        id: 'try-button',
        className: 'primary',
        'aria-describedby': 'try-reason',
        text: destructive ? 'Send (destructive)' : 'Send request',
      }),
      el('span', { id: 'try-reason', role: 'status' }),
    ),
    el(
      'section',
      { id: 'answer', 'aria-labelledby': 'answer-title', 'aria-live': 'polite', hidden: true },
      el(
        'div',
        { className: 'answer-head' },
        el('h4', { id: 'answer-title', text: 'Answer' }),
        el('p', { id: 'answer-status' }),
        el('label', null, el('input', { type: 'checkbox', id: 'answer-raw-toggle' }), ' Show the raw response'),
      ),
      el('div', { id: 'answer-body', className: 'answer-body' }),
      el('pre', { id: 'answer-raw', hidden: true }),
    ),
    el(
      'details',
      null,
      el('summary', { text: 'The same call with curl' }),
      el('pre', null, el('code', { id: 'curl-example' })),
    ),
  );

/** Shows the tool named in the fragment, or the overview. */
export const select = (name: string): void => {
  const tool = state.byName.get(name);
  state.current = tool ? tool.name : null;
  if (tool) renderTool(tool);
  else renderOverview();
  markCurrent();
  document.title = (tool ? tool.name + ' · ' : '') + 'Tool Gateway API reference';
};

/** The width below which the tool list sits above the tool (the stylesheet's one-column layout). */
const ONE_COLUMN = '(max-width: 800px)';

export const route = (): void => {
  select(decodeURIComponent(location.hash.replace(/^#/, '')));
  const main = byId('tool-detail');
  // In one column the tool is below the sign-in and the tool list: show the tool, not the top of the page.
  if (state.current && window.matchMedia(ONE_COLUMN).matches) main.scrollIntoView();
  else window.scrollTo(0, 0);
  if (state.current) main.focus({ preventScroll: true });
};
