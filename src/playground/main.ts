// The playground served by `folio serve` at `/`: paste a key, drop files, watch them being read,
// then look at each page beside what Folio read from it. It talks to the API of the server that
// serves it with the published TypeScript client, as any other program would.
import { FolioApiError, type FolioClient } from 'folio-api/client';
import { AnswersPanel } from './answers.js';
import { byId, fill, h } from './dom.js';
import { clientFor, forgetKey, rememberKey, storedKey } from './session.js';
import { Uploads } from './uploads.js';
import { DocumentViewer } from './viewer.js';

const viewer = new DocumentViewer();
const answers = new AnswersPanel(viewer);
let client: FolioClient | null = null;

const uploads = new Uploads((id, auto) => {
  // A document that finishes while another is open stays in the list instead of taking over.
  if (auto && viewer.openDocument) return;
  void openDocument(id);
});

async function openDocument(id: string): Promise<void> {
  if (!client) return;
  try {
    const document = await client.getDocument(id, { include: ['markdown', 'options'] }).catch((error: unknown) => {
      // `markdown` exists only for documents sent with markdown: true.
      if (error instanceof FolioApiError && error.status === 422) return client!.getDocument(id, { include: ['options'] });
      throw error;
    });
    await viewer.open(client, document);
    await answers.open(client, document);
  } catch (error) {
    fill(byId('upload-status'), h('span', { class: 'error' }, `Could not open the document: ${(error as Error).message}`));
  }
}

async function useKey(key: string): Promise<void> {
  const status = byId('key-status');
  fill(status, 'Checking the key…');
  const candidate = clientFor(key);
  try {
    const account = await candidate.getAccount();
    rememberKey(key);
    client = candidate;
    const credit = account.credits.available_micro / 1e6;
    fill(
      status,
      `Using key ${account.key.prefix}… of ${account.organization.name} (${account.plan.name} plan, ${account.key.mode} mode). `,
      account.key.mode === 'test' ? 'Test documents are never charged.' : `Credit: US$${credit.toFixed(2)}.`,
    );
    byId('key-forget').hidden = false;
    byId('upload-section').hidden = false;
    viewer.close();
    byId('viewer').hidden = true;
    await uploads.open(candidate);
  } catch (error) {
    fill(status, h('span', { class: 'error' }, error instanceof FolioApiError ? `${error.type}: ${error.message}` : `Could not reach Folio: ${(error as Error).message}`));
  }
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const key = byId<HTMLInputElement>('key-input').value.trim();
  if (key) void useKey(key);
});

byId('key-forget').addEventListener('click', () => {
  forgetKey();
  client = null;
  viewer.close();
  byId<HTMLInputElement>('key-input').value = '';
  byId('key-forget').hidden = true;
  byId('upload-section').hidden = true;
  byId('viewer').hidden = true;
  fill(byId('key-status'), 'The key is forgotten.');
  byId('key-input').focus();
});

const remembered = storedKey();
if (remembered) {
  byId<HTMLInputElement>('key-input').value = remembered;
  void useKey(remembered);
}
