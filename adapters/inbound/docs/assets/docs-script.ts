/**
 * The reference page's script: plain browser JavaScript, no dependencies. It reads GET /v1/tools, keeps
 * the caller's token in sessionStorage, and calls tools with it. Everything it shows is built with DOM
 * calls and textContent (never innerHTML), so tool text cannot inject markup.
 * (The source avoids the backtick character: it lives inside a template literal.)
 */
export const DOCS_SCRIPT = String.raw`
(function () {
  'use strict';

  var TOKEN_KEY = 'tool-gateway.token';
  var TICK = '\x60';
  var apiBase = new URL('.', document.baseURI);
  var state = { tools: [], byName: new Map(), groups: [], token: null, callable: null, current: null, busy: false };

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === undefined || value === null || value === false) return;
        if (key === 'text') node.textContent = value;
        else if (key === 'className') node.className = value;
        else if (key === 'on') Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); });
        else node.setAttribute(key, value === true ? '' : String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }

  function api(path) { return new URL(path, apiBase).toString(); }

  // ---- inline markdown: code spans, bold, links --------------------------------------------------

  var INLINE = new RegExp(TICK + '([^' + TICK + ']+)' + TICK + '|\\*\\*([^*]+)\\*\\*|\\[([^\\]]+)\\]\\((https?://[^\\s)]+)\\)|(https?://[^\\s<>|]+[^\\s<>|.,;:!?)\\]])', 'g');

  function inline(text) {
    var out = [];
    var last = 0;
    var m;
    INLINE.lastIndex = 0;
    while ((m = INLINE.exec(text)) !== null) {
      if (m.index > last) out.push(text.slice(last, m.index));
      if (m[1] !== undefined) out.push(el('code', { text: m[1] }));
      else if (m[2] !== undefined) out.push(el('strong', null, inline(m[2])));
      else if (m[3] !== undefined) out.push(el('a', { href: m[4], target: '_blank', rel: 'noopener noreferrer', text: m[3] }));
      else out.push(el('a', { href: m[5], target: '_blank', rel: 'noopener noreferrer', text: m[5] }));
      last = INLINE.lastIndex;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  // ---- block markdown: headings, tables, lists, fenced code, paragraphs ----------------------------

  function splitRow(line) {
    var body = line.trim();
    if (body.charAt(0) === '|') body = body.slice(1);
    if (body.charAt(body.length - 1) === '|' && body.charAt(body.length - 2) !== '\\') body = body.slice(0, -1);
    var cells = [];
    var cur = '';
    for (var i = 0; i < body.length; i++) {
      var ch = body.charAt(i);
      if (ch === '\\' && body.charAt(i + 1) === '|') { cur += '|'; i++; }
      else if (ch === '|') { cells.push(cur.trim()); cur = ''; }
      else cur += ch;
    }
    cells.push(cur.trim());
    return cells;
  }

  var RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
  var FENCE = new RegExp('^\\s*' + TICK + TICK + TICK);

  function markdown(text) {
    var lines = String(text).replace(/\r\n?/g, '\n').split('\n');
    var root = el('div', { className: 'markdown' });
    var para = [];
    function flush() {
      if (!para.length) return;
      var p = el('p');
      para.forEach(function (line, i) { if (i) p.appendChild(el('br')); append(p, inline(line)); });
      root.appendChild(p);
      para = [];
    }
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      var heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (!line.trim()) { flush(); continue; }
      if (FENCE.test(line)) {
        flush();
        var code = [];
        for (i++; i < lines.length && !FENCE.test(lines[i]); i++) code.push(lines[i]);
        root.appendChild(el('pre', null, el('code', { text: code.join('\n') })));
        continue;
      }
      if (heading) {
        flush();
        root.appendChild(el('h' + Math.min(6, heading[1].length + 2), null, inline(heading[2])));
        continue;
      }
      if (line.trim().charAt(0) === '|' && i + 1 < lines.length && RULE.test(lines[i + 1])) {
        flush();
        var head = splitRow(line);
        var rows = [];
        for (i += 2; i < lines.length && lines[i].trim().charAt(0) === '|'; i++) rows.push(splitRow(lines[i]));
        i--;
        root.appendChild(el('div', { className: 'table-wrap' }, el('table', null,
          el('thead', null, el('tr', null, head.map(function (h) { return el('th', null, inline(h)); }))),
          el('tbody', null, rows.map(function (r) {
            return el('tr', null, head.map(function (_, k) { return el('td', null, inline(r[k] || '')); }));
          })))));
        continue;
      }
      if (/^\s*[-*]\s+/.test(line)) {
        flush();
        var ul = el('ul');
        for (; i < lines.length && /^\s*[-*]\s+/.test(lines[i]); i++) ul.appendChild(el('li', null, inline(lines[i].replace(/^\s*[-*]\s+/, ''))));
        i--;
        root.appendChild(ul);
        continue;
      }
      para.push(line);
    }
    flush();
    return root;
  }

  // ---- JSON Schema: parameter rows and example bodies ------------------------------------------------

  function typeLabel(s) {
    if (!s || typeof s !== 'object') return 'any';
    if (s.enum) return 'enum';
    var alts = s.oneOf || s.anyOf;
    if (alts) return alts.map(typeLabel).join(' | ');
    var t = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
    if (t === 'array') return 'array of ' + typeLabel(s.items);
    return t || 'any';
  }

  function constraints(s) {
    var out = [];
    if (s.enum) out.push(['one of ', s.enum.map(function (v) { return JSON.stringify(v); }).join(', ')]);
    if (s['default'] !== undefined) out.push(['default ', JSON.stringify(s['default'])]);
    if (s.minimum !== undefined) out.push(['min ', String(s.minimum)]);
    if (s.maximum !== undefined) out.push(['max ', String(s.maximum)]);
    if (s.minLength !== undefined && s.minLength > 1) out.push(['min length ', String(s.minLength)]);
    if (s.maxLength !== undefined) out.push(['max length ', String(s.maxLength)]);
    if (s.minItems !== undefined) out.push(['min items ', String(s.minItems)]);
    if (s.maxItems !== undefined) out.push(['max items ', String(s.maxItems)]);
    if (s.pattern !== undefined) out.push(['pattern ', s.pattern]);
    if (s.format !== undefined) out.push(['format ', s.format]);
    return out;
  }

  function paramRows(schema, prefix, rows, depth) {
    var props = (schema && schema.properties) || {};
    var required = (schema && schema.required) || [];
    Object.keys(props).forEach(function (key) {
      var s = props[key] || {};
      var path = prefix ? prefix + '.' + key : key;
      rows.push({ path: path, schema: s, required: required.indexOf(key) >= 0 });
      if (depth > 5) return;
      if (s.properties) paramRows(s, path, rows, depth + 1);
      else if (s.type === 'array' && s.items && s.items.properties) paramRows(s.items, path + '[]', rows, depth + 1);
    });
    return rows;
  }

  function example(s, all, depth) {
    if (!s || typeof s !== 'object' || depth > 6) return null;
    if (s.examples && s.examples.length) return s.examples[0];
    if (s['default'] !== undefined) return s['default'];
    if (s['const'] !== undefined) return s['const'];
    if (s.enum && s.enum.length) return s.enum[0];
    var alts = s.oneOf || s.anyOf;
    if (alts && alts.length) return example(alts[0], all, depth + 1);
    var type = Array.isArray(s.type) ? s.type.filter(function (t) { return t !== 'null'; })[0] : s.type;
    if (!type && s.properties) type = 'object';
    switch (type) {
      case 'object': {
        var obj = {};
        var required = s.required || [];
        Object.keys(s.properties || {}).forEach(function (key) {
          if (all || required.indexOf(key) >= 0) obj[key] = example(s.properties[key], all, depth + 1);
        });
        return obj;
      }
      case 'array': return s.items ? [example(s.items, all, depth + 1)] : [];
      case 'integer': case 'number': return s.minimum !== undefined ? s.minimum : 1;
      case 'boolean': return false;
      case 'string':
        if (s.format === 'date') return '2026-01-31';
        if (s.format === 'date-time') return '2026-01-31T12:00:00Z';
        if (s.format === 'email') return 'name@example.com';
        if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
        if (s.pattern === '^[0-9]+$') return '123';
        return '';
      default: return null;
    }
  }

  function exampleBody(tool, all) {
    return JSON.stringify(example(tool.inputSchema, all, 0) || {}, null, 2);
  }

  // ---- tools, groups, navigation ---------------------------------------------------------------------

  function shortName(tool) { return tool.name.slice(tool.group.length + 1); }
  function kindOf(tool) { return (tool.annotations && tool.annotations[0]) || (tool.readOnlyHint ? 'Read' : 'Write'); }

  function badges(tool) {
    return (tool.annotations || []).map(function (a) { return el('span', { className: 'badge ' + a.toLowerCase(), text: a }); });
  }

  function mayCall(tool) { return !state.callable || state.callable.has(tool.name); }

  function renderNav() {
    var nav = $('tool-list');
    var query = $('filter').value.trim().toLowerCase();
    nav.textContent = '';
    var shown = 0;
    state.groups.forEach(function (group) {
      var tools = state.tools.filter(function (t) {
        return t.group === group && (!query || (t.name + ' ' + t.title + ' ' + t.description).toLowerCase().indexOf(query) >= 0);
      });
      if (!tools.length) return;
      shown += tools.length;
      nav.appendChild(el('section', { 'aria-labelledby': 'group-' + group },
        el('h3', { id: 'group-' + group, text: group + ' (' + tools.length + ')' }),
        el('ul', null, tools.map(function (t) {
          return el('li', { className: mayCall(t) ? null : 'locked' }, el('a', {
            id: 'nav-' + t.name, href: '#' + t.name, 'data-tool': t.name,
            'aria-current': state.current === t.name ? 'page' : null,
            title: t.title,
          }, el('span', { className: 'tool-name' }, t.name), el('span', { className: 'tool-title', text: t.title })));
        }))));
    });
    if (!shown) nav.appendChild(el('p', { className: 'muted', text: query ? 'No tool matches "' + query + '".' : 'No tools.' }));
  }

  function renderOverview() {
    var main = $('tool-detail');
    main.textContent = '';
    var counts = state.groups.map(function (g) { return [g, state.tools.filter(function (t) { return t.group === g; }).length]; });
    main.appendChild(el('article', { className: 'overview', 'aria-labelledby': 'overview-title' },
      el('h2', { id: 'overview-title', text: 'API reference' }),
      el('p', null, state.tools.length + ' tools in ' + state.groups.length + ' groups. Every tool is called with ',
        el('code', { text: 'POST /v1/tools/{group}/{tool}' }), ', a JSON object of parameters as the body, and the header ',
        el('code', { text: 'Authorization: Bearer <token>' }), '. The answer is text written for a language model; add ',
        el('code', { text: '?format=json' }), ' for the structured payload.'),
      el('p', null, state.token ? 'You are signed in: pick a tool on the left and try it.' : 'Sign in with a bearer token (top left) to try tools from this page; the token stays in this browser tab.'),
      el('table', null,
        el('thead', null, el('tr', null, el('th', { text: 'Group' }), el('th', { text: 'Tools' }))),
        el('tbody', null, counts.map(function (c) {
          var first = state.tools.filter(function (t) { return t.group === c[0]; })[0];
          return el('tr', null, el('td', null, el('a', { href: '#' + first.name, text: c[0] })), el('td', { text: String(c[1]) }));
        })))));
  }

  function renderTool(tool) {
    var main = $('tool-detail');
    main.textContent = '';
    var rows = paramRows(tool.inputSchema, '', [], 0);
    var path = '/v1/tools/' + tool.group + '/' + shortName(tool);
    var destructive = kindOf(tool) === 'Destructive';

    var paramsBlock = rows.length
      ? el('div', { className: 'table-wrap' }, el('table', { 'aria-label': 'Parameters of ' + tool.name },
          el('thead', null, el('tr', null, el('th', { text: 'Parameter' }), el('th', { text: 'Type' }), el('th', { text: 'Description' }))),
          el('tbody', null, rows.map(function (r) {
            return el('tr', null,
              el('td', { className: 'param' }, r.path, r.required ? el('span', { className: 'req', text: 'required' }) : null),
              el('td', { className: 'type', text: typeLabel(r.schema) }),
              el('td', null, inline(r.schema.description || ''), constraints(r.schema).length
                ? el('span', { className: 'constraints' }, constraints(r.schema).map(function (c, i) {
                    return [i ? ' · ' : '', c[0], el('code', { text: c[1] })];
                  }))
                : null));
          }))))
      : el('p', { className: 'muted', text: 'This tool takes no parameters: send an empty body or {}.' });

    main.appendChild(el('article', { 'aria-labelledby': 'tool-title' },
      el('p', { className: 'group-label', text: tool.group }),
      el('h2', { id: 'tool-title' }, el('code', { text: tool.name })),
      el('p', { className: 'tool-subtitle', text: tool.title }),
      el('div', null, badges(tool), el('span', { className: 'badge permission', title: 'Permission needed', text: tool.permission })),
      el('div', { className: 'endpoint' }, el('span', { className: 'method', text: 'POST' }), path),
      el('div', { className: 'description' }, el('p', null, inline(tool.description))),
      el('h3', { text: 'Parameters' }),
      paramsBlock,
      el('details', null, el('summary', { text: 'JSON Schema of the parameters' }), el('pre', null, el('code', { id: 'tool-schema', text: JSON.stringify(tool.inputSchema, null, 2) }))),
      el('section', { className: 'try', 'aria-labelledby': 'try-title' },
        el('h3', { id: 'try-title', text: 'Try it' }),
        el('label', { 'for': 'request-body', text: 'Request body (JSON)' }),
        el('textarea', { id: 'request-body', rows: 8, spellcheck: 'false', 'aria-describedby': 'body-hint' }),
        el('p', { id: 'body-hint', className: 'hint' },
          rows.length ? 'Prefilled with the required parameters; the table above lists the others.' : 'No parameters needed.',
          rows.length ? el('button', { type: 'button', id: 'fill-all', className: 'link', text: 'Fill in every parameter' }) : null,
          el('button', { type: 'button', id: 'reset-body', className: 'link', text: 'Reset' })),
        el('div', { className: 'try-row' },
          el('label', null, el('input', { type: 'checkbox', id: 'format-json' }), ' Structured JSON (', el('code', { text: '?format=json' }), ')'),
          destructive ? el('label', null, el('input', { type: 'checkbox', id: 'confirm-destructive' }), ' I understand this deletes data') : null,
          el('button', { type: 'button', id: 'try-button', className: 'primary', 'aria-describedby': 'try-reason', text: destructive ? 'Send (destructive)' : 'Send request' }),
          el('span', { id: 'try-reason', role: 'status' })),
        el('section', { id: 'answer', 'aria-labelledby': 'answer-title', 'aria-live': 'polite', hidden: true },
          el('div', { className: 'answer-head' },
            el('h4', { id: 'answer-title', text: 'Answer' }),
            el('p', { id: 'answer-status' }),
            el('label', null, el('input', { type: 'checkbox', id: 'answer-raw-toggle' }), ' Show the raw response')),
          el('div', { id: 'answer-body', className: 'answer-body' }),
          el('pre', { id: 'answer-raw', hidden: true })),
        el('details', null, el('summary', { text: 'The same call with curl' }), el('pre', null, el('code', { id: 'curl-example' }))))));

    var body = $('request-body');
    function setBody(all) {
      body.value = exampleBody(tool, all);
      body.rows = Math.min(18, Math.max(4, body.value.split('\n').length + 1));
      updateCurl();
    }
    body.addEventListener('input', updateCurl);
    if ($('fill-all')) $('fill-all').addEventListener('click', function () { setBody(true); });
    $('reset-body').addEventListener('click', function () { setBody(false); });
    $('format-json').addEventListener('change', updateCurl);
    if (destructive) $('confirm-destructive').addEventListener('change', updateTryButton);
    $('try-button').addEventListener('click', function () { tryTool(tool); });
    $('answer-raw-toggle').addEventListener('change', function () {
      $('answer-raw').hidden = !this.checked;
      $('answer-body').hidden = this.checked;
    });
    setBody(false);
    updateTryButton();
  }

  function targetUrl(tool) {
    return api('v1/tools/' + encodeURIComponent(tool.group) + '/' + encodeURIComponent(shortName(tool)) + ($('format-json').checked ? '?format=json' : ''));
  }

  function updateCurl() {
    var tool = state.byName.get(state.current);
    if (!tool || !$('curl-example')) return;
    var body = $('request-body').value.trim() || '{}';
    var compact = body;
    try { compact = JSON.stringify(JSON.parse(body)); } catch (e) { /* shown as typed */ }
    $('curl-example').textContent = "curl -s -X POST '" + targetUrl(tool) + "' \\\n  -H 'Authorization: Bearer $TOKEN' -H 'Content-Type: application/json' \\\n  -d '" + compact.replace(/'/g, "'\\''") + "'";
  }

  function updateTryButton() {
    var button = $('try-button');
    var reason = $('try-reason');
    if (!button) return;
    var tool = state.byName.get(state.current);
    var why = '';
    if (!state.token) why = 'Sign in with a bearer token (top left) to try this tool.';
    else if (tool && !mayCall(tool)) why = 'Your token lacks the permission "' + tool.permission + '" this tool needs.';
    else if (state.busy) why = 'Sending...';
    else if ($('confirm-destructive') && !$('confirm-destructive').checked) why = 'Tick the confirmation first: this tool deletes data.';
    button.disabled = why !== '';
    reason.textContent = why;
  }

  function select(name) {
    var tool = state.byName.get(name);
    state.current = tool ? tool.name : null;
    if (tool) renderTool(tool); else renderOverview();
    document.querySelectorAll('#tool-list a').forEach(function (a) {
      if (a.getAttribute('data-tool') === state.current) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    document.title = (tool ? tool.name + ' · ' : '') + 'Tool Gateway API reference';
  }

  function route() {
    var name = decodeURIComponent(location.hash.replace(/^#/, ''));
    select(name);
    window.scrollTo(0, 0);
    if (state.current) $('tool-detail').focus({ preventScroll: true });
  }

  // ---- calling a tool --------------------------------------------------------------------------------

  var REASONS = { 200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error',
    502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

  function showAnswer(status, text, parsed, millis, requestId) {
    var answer = $('answer');
    answer.hidden = false;
    var ok = parsed && parsed.success === true;
    var line = $('answer-status');
    line.className = ok ? 'ok' : 'fail';
    line.textContent = status + ' ' + (REASONS[status] || (ok ? 'OK' : 'failed')) + ' · ' + millis + ' ms' + (requestId ? ' · request id ' + requestId : '');
    var body = $('answer-body');
    body.textContent = '';
    if (!parsed) body.appendChild(el('pre', { text: text }));
    else if (parsed.success === true && typeof parsed.data === 'string' && parsed.encoding !== 'base64') body.appendChild(markdown(parsed.data));
    else if (parsed.success === true) body.appendChild(el('pre', null, el('code', { text: JSON.stringify(parsed.data, null, 2) })));
    else {
      var error = parsed.error || {};
      body.appendChild(el('div', { className: 'error-box', role: 'alert' },
        el('p', null, el('span', { className: 'code', text: String(error.code || 'ERROR') }), ' ', inline(String(error.message || text))),
        error.details && Object.keys(error.details).length ? el('pre', null, el('code', { text: JSON.stringify(error.details, null, 2) })) : null));
    }
    var raw = text;
    try { raw = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON */ }
    $('answer-raw').textContent = raw;
  }

  function tryTool(tool) {
    if (!state.token) return;
    var text = $('request-body').value.trim();
    if (text) {
      try { JSON.parse(text); } catch (e) {
        showAnswer('-', '', { success: false, error: { code: 'NOT_SENT', message: 'The request body is not valid JSON (' + e.message + '). Fix it and send again.' } }, 0, '');
        return;
      }
    }
    state.busy = true;
    updateTryButton();
    var started = performance.now();
    var headers = { authorization: 'Bearer ' + state.token };
    if (text) headers['content-type'] = 'application/json';
    fetch(targetUrl(tool), { method: 'POST', headers: headers, body: text || undefined, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        return res.text().then(function (raw) {
          var parsed = null;
          try { parsed = JSON.parse(raw); } catch (e) { /* shown raw */ }
          if (res.status === 401) signOut('The gateway refused the token (401). Sign in again.');
          if (state.current === tool.name) showAnswer(res.status, raw, parsed, Math.round(performance.now() - started), res.headers.get('x-request-id'));
        });
      })
      .catch(function (e) {
        if (state.current === tool.name) showAnswer('-', '', { success: false, error: { code: 'NETWORK_ERROR', message: 'The request did not reach the gateway: ' + e.message } }, Math.round(performance.now() - started), '');
      })
      .then(function () { state.busy = false; updateTryButton(); });
  }

  // ---- sign-in ---------------------------------------------------------------------------------------

  function renderSignIn() {
    var signedIn = Boolean(state.token);
    $('signin-form').hidden = signedIn;
    $('signed-in').hidden = !signedIn;
    if (signedIn) {
      var callable = state.callable ? state.callable.size : state.tools.length;
      $('signin-status').textContent = '';
      append($('signin-status'), [el('span', { className: 'ok', text: 'Signed in. ' }),
        'Token ending "' + state.token.slice(-4) + '" may call ' + callable + ' of ' + state.tools.length + ' tools.']);
    }
    renderNav();
    updateTryButton();
  }

  function signOut(message) {
    state.token = null;
    state.callable = null;
    try { sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* storage unavailable */ }
    showSignInError(message || '');
    renderSignIn();
  }

  function showSignInError(message) {
    var node = $('signin-error');
    node.textContent = message;
    node.hidden = !message;
  }

  function signIn(token, quiet) {
    showSignInError('');
    $('signin-button').disabled = true;
    return fetch(api('v1/tools?callable=true'), { headers: { authorization: 'Bearer ' + token }, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        return res.json().catch(function () { return null; }).then(function (body) {
          if (res.ok && body && body.success) {
            state.token = token;
            state.callable = new Set(body.data.tools.map(function (t) { return t.name; }));
            try { sessionStorage.setItem(TOKEN_KEY, token); } catch (e) { /* kept in memory only */ }
            $('token').value = '';
          } else {
            var why = body && body.error && body.error.message ? body.error.message : 'The gateway answered ' + res.status + '.';
            signOut(quiet ? 'Your saved token was refused; sign in again.' : why);
          }
        });
      })
      .catch(function (e) { showSignInError('Could not reach the gateway: ' + e.message); })
      .then(function () { $('signin-button').disabled = false; renderSignIn(); });
  }

  // ---- start -----------------------------------------------------------------------------------------

  function start() {
    $('signin-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var token = $('token').value.trim();
      if (!token) { showSignInError('Enter a token first.'); return; }
      signIn(token, false);
    });
    $('signout-button').addEventListener('click', function () { signOut(''); $('token').focus(); });
    $('filter').addEventListener('input', renderNav);
    window.addEventListener('hashchange', route);

    fetch(api('v1/tools'), { credentials: 'omit' })
      .then(function (res) {
        if (!res.ok) throw new Error('GET /v1/tools answered ' + res.status);
        return res.json();
      })
      .then(function (body) {
        state.tools = body.data.tools;
        state.tools.forEach(function (t) { state.byName.set(t.name, t); });
        state.tools.forEach(function (t) { if (state.groups.indexOf(t.group) < 0) state.groups.push(t.group); });
        document.body.setAttribute('data-tools-loaded', String(state.tools.length));
        route();
        renderSignIn();
        var saved = null;
        try { saved = sessionStorage.getItem(TOKEN_KEY); } catch (e) { /* storage unavailable */ }
        if (saved) signIn(saved, true);
      })
      .catch(function (e) {
        $('tool-list').textContent = '';
        $('tool-list').appendChild(el('p', { className: 'error', role: 'alert', text: 'Could not load the tool list: ' + e.message }));
      });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
`;
