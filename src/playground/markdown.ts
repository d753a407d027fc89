// The document's markdown shown as a page. Folio's markdown carries no HTML of its own except the
// `<!-- image -->` figure marker; any other HTML (a document can contain text that looks like it)
// is shown as text, and links go nowhere but http(s) and mailto.
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
const SAFE_URL = /^(https?:|mailto:)/i;

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return /^\s*<!--\s*image\s*-->\s*$/.test(text) ? '<p class="figure-marker">[figure]</p>\n' : escapeHtml(text);
    },
    link({ href, text }) {
      return SAFE_URL.test(href) ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${escapeHtml(text)}</a>` : escapeHtml(text);
    },
    image({ text }) {
      return `<span class="figure-marker">[${escapeHtml(text || 'image')}]</span>`;
    },
  },
});

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown) as string;
}
