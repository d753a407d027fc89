// What the model found: the extraction sent with the document (`result`), and questions asked
// afterwards (queries). Every value comes with its citation and a button that shows it on its page.
import { FolioApiError, type Document, type ExtractionResult, type FolioClient, type Query } from 'folio-api/client';
import { byId, fill, h } from './dom.js';
import type { Citation, DocumentViewer } from './viewer.js';

export class AnswersPanel {
  private client: FolioClient | null = null;
  private documentId: string | null = null;

  constructor(private readonly viewer: DocumentViewer) {
    const form = byId<HTMLFormElement>('ask-form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.ask();
    });
    byId<HTMLTextAreaElement>('ask-question').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
  }

  async open(client: FolioClient, document: Document): Promise<void> {
    this.client = client;
    this.documentId = document.id;
    fill(byId('ask-status'));
    fill(byId('answers'));
    this.renderResult(document.result ?? null);
    const earlier = await client.listQueries(document.id, { limit: 20 }).catch(() => null);
    if (this.documentId !== document.id || !earlier) return;
    for (const query of earlier.data.reverse()) if (query.status === 'completed' || query.status === 'failed') this.renderQuery(query);
  }

  private citeButton(citation: Citation, what: string): HTMLButtonElement {
    return h(
      'button',
      {
        type: 'button',
        class: 'cite',
        'aria-label': `Show ${what} on page ${citation.page}`,
        onclick: () => void this.viewer.showCitation(citation),
      },
      `Show on page ${citation.page}`,
    );
  }

  private quote(citation: { page: number; quote: string }): HTMLElement {
    return h('blockquote', { class: 'quote' }, `“${citation.quote}”`, h('span', { class: 'where' }, ` page ${citation.page}`));
  }

  /** `result.data` values with their citations, and the answers to the questions sent with the document. */
  private renderResult(result: ExtractionResult | null): void {
    const view = byId('extraction-result');
    if (!result) return fill(view, h('p', { class: 'hint' }, 'No extraction was asked for with this document. Tick fields under Options before uploading, or ask a question below.'));
    const parts: HTMLElement[] = [h('h3', {}, 'Extraction')];
    const sections = result.per_page ? (result.pages ?? []).map((p) => ({ label: `Page ${p.page}`, data: p.data, citations: p.citations })) : [{ label: '', data: result.data ?? {}, citations: result.citations ?? [] }];
    for (const section of sections) {
      if (section.label) parts.push(h('h4', {}, section.label));
      const rows = section.citations.map((citation) => {
        const value = valueAt({ data: section.data }, citation.path);
        return h(
          'tr',
          {},
          h('th', { scope: 'row' }, h('code', {}, citation.path.replace(/^data\./, ''))),
          h('td', {}, typeof value === 'string' ? value : JSON.stringify(value)),
          h('td', {}, this.quote(citation)),
          h('td', {}, this.citeButton(citation, citation.path.replace(/^data\./, ''))),
        );
      });
      parts.push(
        rows.length
          ? h('table', { class: 'data-table values' }, h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Value'), h('th', {}, 'Cited'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Show')))), h('tbody', {}, ...rows))
          : h('p', { class: 'empty' }, 'The document confirmed none of the fields asked for.'),
      );
      parts.push(h('details', {}, h('summary', {}, 'Data as JSON'), h('pre', {}, JSON.stringify(section.data, null, 2))));
    }
    if (result.answers?.length) {
      parts.push(h('h3', {}, 'Questions sent with the document'));
      const list = h('ol', { class: 'answers' });
      for (const answer of result.answers) {
        list.append(
          h(
            'li',
            {},
            h('p', { class: 'question' }, answer.question),
            answer.not_found ? h('p', { class: 'answer none' }, 'The document does not say.') : h('p', { class: 'answer' }, answer.answer),
            !answer.not_found && answer.quote && answer.page !== null ? this.quote({ page: answer.page, quote: answer.quote }) : null,
            !answer.not_found && answer.quote && answer.page !== null ? this.citeButton({ page: answer.page, quote: answer.quote, bbox: answer.bbox }, 'the answer') : null,
          ),
        );
      }
      parts.push(list);
    }
    for (const warning of result.warnings ?? []) parts.push(h('p', { class: 'warning' }, warning));
    fill(view, ...parts);
  }

  private async ask(): Promise<void> {
    const client = this.client;
    const documentId = this.documentId;
    if (!client || !documentId) return;
    const question = byId<HTMLTextAreaElement>('ask-question').value.trim();
    const schemaText = byId<HTMLTextAreaElement>('ask-schema').value.trim();
    const status = byId('ask-status');
    let schema: Record<string, unknown> | undefined;
    if (schemaText) {
      try {
        schema = JSON.parse(schemaText) as Record<string, unknown>;
      } catch (error) {
        return fill(status, `The schema is not JSON: ${(error as Error).message}`);
      }
    }
    if (!question) return fill(status, 'Write a question first.');
    fill(status, 'Asking…');
    try {
      const created = await client.createQuery(documentId, { question, ...(schema ? { schema } : {}) });
      const done = await client.waitForQuery(documentId, created.id, { intervalMs: 300, maxIntervalMs: 1500, timeoutMs: 300_000 });
      if (this.documentId !== documentId) return;
      fill(status, done.status === 'completed' ? 'Answered.' : `The question failed: ${done.error?.message ?? 'unknown error'}`);
      this.renderQuery(done, true);
    } catch (error) {
      fill(status, error instanceof FolioApiError ? `${error.type}: ${error.message}` : `Could not ask: ${(error as Error).message}`);
    }
  }

  private renderQuery(query: Query, newest = false): void {
    const list = byId('answers');
    const answer = query.answer;
    const item = h(
      'li',
      {},
      h('p', { class: 'question' }, query.question),
      query.status === 'failed'
        ? h('p', { class: 'answer none' }, `Failed: ${query.error?.message ?? ''}`)
        : !answer || answer.not_found
          ? h('p', { class: 'answer none' }, 'The document does not say.')
          : h('p', { class: 'answer' }, typeof answer.answer === 'string' ? answer.answer : JSON.stringify(answer.answer)),
      ...(answer && !answer.not_found ? answer.citations.flatMap((c, i) => [this.quote(c), this.citeButton(c, `citation ${i + 1}`)]) : []),
    );
    if (newest) list.prepend(item);
    else list.append(item);
  }
}

/** The value a citation path like `data.amounts[0].amount` points at. */
export function valueAt(root: unknown, path: string): unknown {
  let value: unknown = root;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
