// DOM helpers for the reference page. Everything the page shows is built with these (textContent, never
// innerHTML), so text from the tool listing or from an answer cannot inject markup.

/** What `el` appends: nodes, text, nothing (null, undefined, false), or lists of these. */
export type Child = Node | string | null | undefined | false | readonly Child[];

/** Attributes; `text` sets textContent and `className` the class. Null, undefined and false leave one out. */
export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

export const append = (node: Node, child: Child): void => {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) {
    (child as readonly Child[]).forEach((c) => append(node, c));
    return;
  }
  node.appendChild(typeof child === 'string' ? document.createTextNode(child) : (child as Node));
};

/** Creates an element with attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function el(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
export function el(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach((key) => {
      const value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = String(value);
      else node.setAttribute(key, value === true ? '' : String(value));
    });
  }
  children.forEach((child) => append(node, child));
  return node;
}

/** The element with this id, if the page has it now. */
export function findById(id: string): HTMLElement | null;
export function findById<T extends HTMLElement>(id: string, type: new () => T): T | null;
export function findById(id: string, type: new () => HTMLElement = HTMLElement): HTMLElement | null {
  const node = document.getElementById(id);
  return node instanceof type ? node : null;
}

/** The element with this id, which the page always has while it is used. */
export function byId(id: string): HTMLElement;
export function byId<T extends HTMLElement>(id: string, type: new () => T): T;
export function byId(id: string, type: new () => HTMLElement = HTMLElement): HTMLElement {
  const node = findById(id, type);
  if (!node) throw new Error(`The page has no ${type.name} #${id}`);
  return node;
}

/** The message of a caught error, for text shown on the page. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
