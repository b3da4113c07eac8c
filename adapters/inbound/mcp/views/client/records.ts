import { button, facts, h, replace, status } from './dom.js';
import { callTool, show, startView, textOf, type ToolAnswer, type ViewContext } from './shell.js';

// The record table: a page of records (records_listRecords / records_filterRecords), sorted by a column,
// the next page and one record opened, through the app-only tools views_recordsPage and views_openRecord.

interface Row {
  readonly record_id: number;
  readonly title?: string;
  readonly values?: Record<string, unknown>;
}

interface TableState {
  sortBy?: string;
  sortDesc: boolean;
}

const label = (key: string): string => key.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A value as text: money as `USD 640,000`, a date range by its ends, a file by its name, else as given. */
const cell = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  const o = value as Record<string, unknown>;
  if (typeof o['currency'] === 'string' && o['value'] !== undefined)
    return `${o['currency']} ${Number(o['value']).toLocaleString('en')}`;
  if (typeof o['start'] === 'string') return o['end'] ? `${o['start']} → ${String(o['end'])}` : o['start'];
  if (typeof o['name'] === 'string') return o['name'];
  return JSON.stringify(value);
};

/** A field's value as a person reads it: a category's texts, a relation's titles, else the value itself. */
const fieldText = (value: unknown): string => {
  if (!Array.isArray(value)) return cell(value);
  return value
    .map((v) => {
      const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
      return cell(o ? (o['text'] ?? o['title'] ?? o) : v);
    })
    .join(', ');
};

/** A whole record's fields (records_getRecord: `fields` [{label, value}]), or a table row's values, as pairs. */
const fieldPairs = (data: Record<string, unknown> | undefined): [string, string][] => {
  const fields = data?.['fields'];
  if (Array.isArray(fields))
    return fields.map((f: Record<string, unknown>) => [
      String(f['label'] ?? f['external_id'] ?? ''),
      fieldText(f['value']),
    ]);
  const values = data?.['values'];
  return values && typeof values === 'object'
    ? Object.entries(values as Record<string, unknown>).map(([k, v]) => [label(k), fieldText(v)])
    : [];
};

const render = (answer: ToolAnswer, ctx: ViewContext, state: TableState = { sortDesc: false }): void => {
  const data = answer.structuredContent ?? {};
  const rows = (Array.isArray(data['records']) ? data['records'] : []) as Row[];
  const total = typeof data['total'] === 'number' ? data['total'] : rows.length;
  const cursor = typeof data['cursor'] === 'string' ? data['cursor'] : undefined;
  const appId = typeof ctx.args['app_id'] === 'number' ? ctx.args['app_id'] : undefined;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.values ?? {})))];
  const detail = h('section', { 'aria-live': 'polite', 'aria-label': 'Opened record' });

  const page = async (next: TableState, at?: string) => {
    if (appId === undefined) return;
    replace(detail, status('info', 'Loading…'));
    const limit = typeof ctx.args['limit'] === 'number' ? ctx.args['limit'] : undefined;
    const result = await callTool(ctx, 'views_recordsPage', {
      app_id: appId,
      ...(Array.isArray(ctx.args['filters']) ? { filters: ctx.args['filters'] } : {}),
      ...(next.sortBy ? { sort_by: next.sortBy, sort_desc: next.sortDesc } : {}),
      ...(at ? { cursor: at } : {}),
      ...(limit ? { limit } : {}),
    });
    show(result, ctx, (a, c) => render(a, c, next));
  };
  const open = async (row: Row) => {
    replace(detail, status('info', `Opening record ${row.record_id}…`));
    const result = await callTool(ctx, 'views_openRecord', { record_id: row.record_id });
    if (result.isError) return replace(detail, status('bad', textOf(result)));
    const pairs = fieldPairs(result.structuredContent);
    replace(
      detail,
      h('h2', {}, `${row.title ?? 'Record'} (record ${row.record_id})`),
      pairs.length ? facts(pairs) : h('pre', {}, textOf(result)),
    );
  };

  const header = (key: string) => {
    const sorted = state.sortBy === key;
    const sort = sorted ? (state.sortDesc ? 'descending' : 'ascending') : 'none';
    const th = h('th', { scope: 'col', 'aria-sort': appId === undefined ? undefined : sort });
    if (appId === undefined) th.append(label(key));
    else
      th.append(
        button(
          `${label(key)}${sorted ? (state.sortDesc ? ' ▼' : ' ▲') : ''}`,
          () => void page({ sortBy: key, sortDesc: sorted ? !state.sortDesc : false }),
          undefined,
          { 'aria-label': `Sort by ${label(key)}` },
        ),
      );
    return th;
  };

  const table = h(
    'table',
    {},
    h('caption', {}, `${rows.length} of ${total} records`),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'Title'), ...columns.map(header), h('th', { scope: 'col' }, 'Open')),
    ),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          {},
          h('td', {}, r.title ?? String(r.record_id)),
          ...columns.map((c) => h('td', {}, cell(r.values?.[c]))),
          h(
            'td',
            {},
            button('Open', () => void open(r), undefined, { 'aria-label': `Open record ${r.record_id}` }),
          ),
        ),
      ),
    ),
  );
  replace(
    ctx.root,
    h('h1', {}, 'Records'),
    h('div', { class: 'table-wrap' }, table),
    h(
      'div',
      { class: 'actions' },
      cursor && appId !== undefined
        ? button('Next page', () => void page(state, cursor), 'primary')
        : h('span', { class: 'muted' }, cursor ? 'More records: ask for the next page.' : 'This is the last page.'),
    ),
    detail,
  );
};

startView('records', (answer, ctx) => render(answer, ctx));
