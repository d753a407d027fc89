// Sending documents (dropped or chosen files, or a URL) with the chosen options, and the list of
// documents with their status and stage, refreshed until each one finishes.
import { FolioApiError, type Document, type DocumentListItem, type DocumentOptions, type FolioClient } from 'folio-api/client';
import { byId, fill, h } from './dom.js';

type ExtractionField = NonNullable<NonNullable<DocumentOptions['extraction']>['fields']>[number];
/** docs/api.md's built-in fields; typed against the server's schema, so a misspelt one fails the build. */
const FIELDS: ExtractionField[] = ['title', 'document_type', 'summary', 'dates', 'parties', 'amounts', 'key_facts'];

const STAGES = ['received', 'fetching', 'analyzing', 'rendering', 'reserving', 'extracting', 'embedding', 'finalizing', 'done'];
const FINISHED = new Set(['completed', 'failed', 'expired']);
const POLL_MS = 600;

interface Entry {
  id: string;
  name: string;
  item: HTMLLIElement;
  document: Document | DocumentListItem | null;
}

export class Uploads {
  private client: FolioClient | null = null;
  private readonly entries = new Map<string, Entry>();
  /** The refresh loop running, by the `open` it belongs to: a loop left from another key stops. */
  private polling = false;
  private generation = 0;

  /** `onOpen(id, auto)`: `auto` when the document just finished rather than being chosen. */
  constructor(private readonly onOpen: (id: string, auto: boolean) => void) {
    const fields = byId('opt-fields');
    for (const field of FIELDS) {
      fields.append(h('label', {}, h('input', { type: 'checkbox', value: field, name: 'field' }), ` ${field.replace('_', ' ')}`));
    }
    const input = byId<HTMLInputElement>('file-input');
    input.addEventListener('change', () => {
      if (input.files?.length) void this.sendFiles([...input.files]);
      input.value = '';
    });
    const zone = byId('drop-zone');
    zone.addEventListener('dragover', (event) => {
      event.preventDefault();
      zone.classList.add('over');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (event) => {
      event.preventDefault();
      zone.classList.remove('over');
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length) void this.sendFiles(files);
    });
    byId<HTMLFormElement>('upload-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const url = byId<HTMLInputElement>('url-input').value.trim();
      if (url) void this.sendUrl(url);
    });
  }

  /** Starts with the key's recent documents. */
  async open(client: FolioClient): Promise<void> {
    this.client = client;
    this.generation++;
    this.polling = false;
    this.entries.clear();
    fill(byId('documents'));
    fill(byId('upload-status'));
    const recent = await client.listDocuments({ limit: 10 }).catch(() => null);
    for (const document of (recent?.data ?? []).reverse()) this.track(document.id, document.filename ?? document.id, document);
    this.poll();
  }

  private options(): DocumentOptions {
    const fields = [...document.querySelectorAll<HTMLInputElement>('#opt-fields input:checked')].map((c) => c.value as ExtractionField);
    const questions = byId<HTMLTextAreaElement>('opt-questions')
      .value.split('\n')
      .map((q) => q.trim())
      .filter(Boolean);
    const analysis = byId<HTMLSelectElement>('opt-analysis').value as 'layout' | 'read';
    return {
      analysis,
      markdown: analysis === 'layout' && byId<HTMLInputElement>('opt-markdown').checked,
      images: byId<HTMLInputElement>('opt-images').checked,
      ...(fields.length ? { extraction: { fields } } : {}),
      ...(questions.length ? { queries: questions } : {}),
    };
  }

  private async sendFiles(files: File[]): Promise<void> {
    const client = this.client;
    if (!client) return;
    const status = byId('upload-status');
    fill(status, `Sending ${files.length} file${files.length === 1 ? '' : 's'}…`);
    const options = this.options();
    let accepted = 0;
    const refused: string[] = [];
    // One request per file: each gets its own progress line and its own answer.
    await Promise.all(
      files.map(async (file) => {
        try {
          const answer = await client.submitFile({ data: file, filename: file.name }, { options });
          this.track(answer.id, file.name, null);
          accepted++;
        } catch (error) {
          refused.push(`${file.name}: ${describe(error)}`);
        }
      }),
    );
    fill(status, `${accepted} accepted.`, ...refused.map((r) => h('span', { class: 'error' }, ` Refused ${r}`)));
    this.poll();
  }

  private async sendUrl(url: string): Promise<void> {
    const client = this.client;
    if (!client) return;
    const status = byId('upload-status');
    fill(status, `Sending ${url}…`);
    try {
      const answer = await client.submitUrl(url, { options: this.options() });
      this.track(answer.id, url, null);
      fill(status, 'Accepted.');
      byId<HTMLInputElement>('url-input').value = '';
    } catch (error) {
      fill(status, h('span', { class: 'error' }, `Refused: ${describe(error)}`));
    }
    this.poll();
  }

  private track(id: string, name: string, document: Document | DocumentListItem | null): void {
    if (this.entries.has(id)) return;
    const item = h('li', { class: 'document', 'data-id': id });
    const entry: Entry = { id, name, item, document };
    this.entries.set(id, entry);
    byId('documents').prepend(item);
    this.render(entry);
  }

  private render(entry: Entry): void {
    const document = entry.document;
    const status = document?.status ?? 'queued';
    const stage = document?.stage ?? 'received';
    const step = Math.max(0, STAGES.indexOf(stage));
    const finished = FINISHED.has(status);
    const label = `${entry.name}: ${status}${finished ? '' : `, ${stage.replace('_', ' ')}`}`;
    fill(
      entry.item,
      h('span', { class: 'name' }, entry.name),
      h('span', { class: `status status-${status}` }, status),
      finished ? null : h('span', { class: 'stage' }, stage),
      h('progress', { max: STAGES.length - 1, value: status === 'completed' ? STAGES.length - 1 : step, 'aria-label': label }),
      document && 'page_count' in document && document.page_count ? h('span', { class: 'pages' }, `${document.page_count} page${document.page_count === 1 ? '' : 's'}`) : null,
      status === 'failed' && document && 'error' in document && document.error ? h('span', { class: 'error' }, `${document.error.type}: ${document.error.message}`) : null,
      status === 'completed' ? h('button', { type: 'button', class: 'open', onclick: () => this.onOpen(entry.id, false) }, `Open ${entry.name}`) : null,
    );
  }

  /** Refreshes every unfinished document until all are finished; opens a document that just completed. */
  private poll(): void {
    if (this.polling) return;
    this.polling = true;
    const client = this.client!;
    const generation = this.generation;
    const tick = async () => {
      if (generation !== this.generation) return;
      const waiting = [...this.entries.values()].filter((e) => !e.document || !FINISHED.has(e.document.status));
      if (!waiting.length) {
        this.polling = false;
        return;
      }
      await Promise.all(
        waiting.map(async (entry) => {
          const document = await client.getDocument(entry.id).catch(() => null);
          if (!document || generation !== this.generation) return;
          const justFinished = document.status === 'completed' && entry.document?.status !== 'completed';
          entry.document = document;
          this.render(entry);
          if (justFinished) {
            byId('upload-status').textContent = `${entry.name} is read.`;
            this.onOpen(entry.id, true);
          }
        }),
      );
      setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
  }
}

function describe(error: unknown): string {
  return error instanceof FolioApiError ? `${error.type}: ${error.message}` : (error as Error).message;
}
