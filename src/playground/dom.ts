// Building the page from data: every text a document contributes goes in as a text node, never
// as markup, so nothing a document says can run in the playground.

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/** An element with attributes (`on...` are listeners, `false`/null leave it out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element as T;
}

/**
 * WAI-ARIA tabs: arrow keys, Home and End move between tabs (roving tabindex), Enter or Space or a
 * click selects; the selected tab's panel is shown and the others hidden.
 */
export function tabs(list: HTMLElement, onSelect: (tab: HTMLButtonElement) => void = () => {}): { select(id: string): void } {
  const all = () => [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')].filter((t) => !t.hidden);
  const select = (tab: HTMLButtonElement, focus = false) => {
    for (const other of list.querySelectorAll<HTMLButtonElement>('[role="tab"]')) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute('aria-controls')!);
      if (panel) panel.hidden = !selected;
    }
    if (focus) tab.focus();
    onSelect(tab);
  };
  list.addEventListener('click', (event) => {
    const tab = (event.target as Element).closest<HTMLButtonElement>('[role="tab"]');
    if (tab) select(tab);
  });
  list.addEventListener('keydown', (event) => {
    const current = all().indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    const tabsNow = all();
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabsNow.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabsNow[(next + tabsNow.length) % tabsNow.length], true);
  });
  return { select: (id) => select(byId<HTMLButtonElement>(id)) };
}
