// The tool list on the left: tools by group, narrowed by the filter box; tools the token may not call
// are marked as locked.
import { byId, el } from './dom.js';
import { mayCall, state } from './state.js';

export const renderNav = (): void => {
  const nav = byId('tool-list');
  const query = byId('filter', HTMLInputElement).value.trim().toLowerCase();
  nav.textContent = '';
  let shown = 0;
  state.groups.forEach((group) => {
    const tools = state.tools.filter(
      (t) =>
        t.group === group &&
        (!query || (t.name + ' ' + t.title + ' ' + t.description).toLowerCase().indexOf(query) >= 0),
    );
    if (!tools.length) return;
    shown += tools.length;
    nav.appendChild(
      el(
        'section',
        { 'aria-labelledby': 'group-' + group },
        el('h3', { id: 'group-' + group, text: group + ' (' + tools.length + ')' }),
        el(
          'ul',
          null,
          tools.map((t) =>
            el(
              'li',
              { className: mayCall(t) ? null : 'locked' },
              el(
                'a',
                {
                  id: 'nav-' + t.name,
                  href: '#' + t.name,
                  'data-tool': t.name,
                  'aria-current': state.current === t.name ? 'page' : null,
                  title: t.title,
                },
                el('span', { className: 'tool-name' }, t.name),
                el('span', { className: 'tool-title', text: t.title }),
              ),
            ),
          ),
        ),
      ),
    );
  });
  if (!shown)
    nav.appendChild(el('p', { className: 'muted', text: query ? 'No tool matches "' + query + '".' : 'No tools.' }));
};

/** Marks the tool on show in the list. */
export const markCurrent = (): void => {
  document.querySelectorAll('#tool-list a').forEach((a) => {
    if (a.getAttribute('data-tool') === state.current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
};
