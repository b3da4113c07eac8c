// Building the DOM without innerHTML: every value a tool returns is set as text, never parsed as HTML.

type Child = Node | string | undefined | false;

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
};

export const replace = (root: HTMLElement, ...children: Child[]): void => {
  root.replaceChildren(...children.filter((c): c is Node | string => !!c));
};

/** A definition list of label/value pairs, skipping empty values. */
export const facts = (pairs: readonly (readonly [string, unknown])[]): HTMLDListElement =>
  h(
    'dl',
    { class: 'facts' },
    ...pairs
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, typeof v === 'string' ? v : JSON.stringify(v))]),
  );

export const status = (kind: 'ok' | 'bad' | 'info', text: string): HTMLParagraphElement =>
  h('p', { class: `status ${kind === 'info' ? '' : kind}`.trim(), role: 'status' }, text);

export const button = (label: string, onClick: () => void, cls?: string, extra: Record<string, string> = {}) => {
  const b = h('button', { type: 'button', ...(cls ? { class: cls } : {}), ...extra }, label);
  b.addEventListener('click', onClick);
  return b;
};
