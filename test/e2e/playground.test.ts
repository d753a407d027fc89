// The playground at `/` (issue 11 scope 3) in headless Chromium (Debian's `chromium`, driven by
// playwright-core), used the way a person would, from the keyboard: paste a key, choose a corpus
// PDF, watch it being read, then check its page picture and boxes, a table against the corpus
// truth, the markdown, and a question's citation highlighted on the page; then a document's chunks
// with the chosen one's boxes on its pages (issue 26), and an Office file's without pictures.
// Screenshots are kept in test-artifacts/. The browser side runs once (SQLite): the API beneath it
// runs on both stores in the other files.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, ROOT, STORE, type Server } from '../helpers/folio.js';
import { docxPackage } from '../helpers/office.js';
import { formPdf, textPdf } from '../helpers/pdfs.js';

const CHROMIUM = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
// .ci/run installs Chromium and sets this, so a missing browser fails CI instead of skipping.
if (!haveBrowser && process.env.FOLIO_REQUIRE_BROWSER === '1') throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
if (!haveBrowser) console.warn(`playground tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set FOLIO_CHROMIUM)`);

const CASE = path.join(CORPUS, 'tables/camelot-twotables_2');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

// Callbacks given to page.evaluate run in the page, where `globalThis` is the window (typed `any`:
// this project's types have no DOM).
describe.skipIf(!haveBrowser || STORE !== 'sqlite')('the playground', () => {
  let install: Installation;
  let server: Server;
  let key: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    install = await Installation.create();
    server = await install.start();
    key = (await install.workspace()).test;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // A script error or a blocked load (the page's CSP) is a failure even when the page looks fine.
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await install?.destroy();
  });

  it('is served at / with a policy that lets it load and talk to nothing but this server', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await response.text();
    // No CDN: every script and stylesheet comes from this server.
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect((await fetch(`${server.url}/app.js`)).status).toBe(200);
  });

  it('reads a corpus PDF from the keyboard alone: page, table, markdown, and a cited answer on its page', async () => {
    await page.goto(server.url);

    // Skip link, then the key field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('key-input');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.getByText(/Using key ak_test_/).waitFor();
    // The key is kept for this tab only.
    expect(await page.evaluate(() => Object.keys((globalThis as any).localStorage).length)).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('folio.playground.key'))).toBe(key);

    // The file input opens the file chooser from the keyboard (Space), as for any person. The
    // wait starts a round trip before the key press: Playwright turns on the browser's file chooser
    // interception without awaiting it, so a key pressed in the same tick can reach Chromium first
    // and open an uncaught native chooser (seen once in CI, on a loaded machine).
    const choosing = page.waitForEvent('filechooser');
    await page.locator('#file-input').focus();
    await page.keyboard.press('Space');
    const chooser = await choosing;
    await chooser.setFiles(path.join(CASE, 'twotables_2.pdf'));

    // Status is shown live, then the document opens by itself once read.
    const item = page.locator('.document', { hasText: 'twotables_2.pdf' });
    await item.waitFor();
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 60_000 }).toBe('completed');
    await page.locator('#viewer-heading', { hasText: 'twotables_2.pdf' }).waitFor();
    const documentId = await page.locator('#viewer-summary code').textContent();
    expect(documentId).toMatch(/^doc_/);
    const api = new Client(server.url, key);

    // The page picture (rendered by the preview endpoint) with one box per layout element.
    await expect.poll(() => page.locator('#page-image').evaluate((img: any) => img.complete && img.naturalWidth), { timeout: 20_000 }).toBeGreaterThan(500);
    const layout = (await api.get(`/api/v1/documents/${documentId}/pages?page=1&include=layout`)).json.data[0].layout;
    expect(await page.locator('#page-overlay .layout-boxes rect').count()).toBe(layout.length);
    await expect.poll(() => page.locator('#page-caption').textContent()).toContain('2 tables');

    // Tables tab: from the Text tab, one ArrowRight. Both tables, cells as the corpus truth has them.
    await page.locator('#ptab-text').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#ptab-tables').getAttribute('aria-selected')).toBe('true');
    const truth = JSON.parse(await readFile(path.join(CASE, 'truth.tables.json'), 'utf8')) as { tables: { cells: { row: number; text: string }[] }[] };
    const shown = page.locator('#ppanel-tables table');
    expect(await shown.count()).toBe(truth.tables.length);
    for (const [i, table] of truth.tables.entries()) {
      const pooled = table.cells.filter((c) => c.row === 12).map((c) => c.text);
      const rowTexts = await shown.nth(i).locator('tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent?.trim())));
      expect(rowTexts).toContainEqual(pooled);
    }
    // Focusing a table draws its box over the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.classList.contains('table-figure'))).toBe(true);
    expect(await page.locator('#page-overlay .focused').count()).toBe(1);

    // Markdown tab: the document's markdown rendered, its tables as tables.
    await page.locator('#tab-pages').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#panel-markdown').isVisible()).toBe(true);
    expect(await page.locator('#markdown-view table').count()).toBe(2);
    await expect.poll(() => page.locator('#markdown-view').textContent()).toContain('Andhra Pradesh');

    // Chunks tab: the document's chunks are fetched when it is first shown.
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#panel-chunks').isVisible()).toBe(true);
    const chunkCount = (await api.get(`/api/v1/documents/${documentId}/chunks`)).json.data.length;
    await expect.poll(() => page.locator('#chunk-list [role="option"]').count(), { timeout: 20_000 }).toBe(chunkCount);

    // Ask a question (Ctrl+Enter in the question field) and show its citation on the page.
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#panel-ask').isVisible()).toBe(true);
    await page.locator('#ask-question').focus();
    await page.keyboard.type('What is the pooled n?');
    await page.keyboard.press('Control+Enter');
    await page.locator('#ask-status', { hasText: 'Answered.' }).waitFor({ timeout: 60_000 });
    const queries = (await api.get(`/api/v1/documents/${documentId}/queries`)).json.data;
    const citation = queries[0].answer.citations[0];
    expect(citation.bbox).toBeTruthy();
    const show = page.locator('#answers button.cite').first();
    await show.focus();
    await page.keyboard.press('Enter');

    // The quote is marked in the page text and its box drawn where the API says it is.
    expect(await page.locator('#ptab-text').getAttribute('aria-selected')).toBe('true');
    const mark = page.locator('#ppanel-text mark.cited');
    await mark.waitFor();
    const fold = (s: string) => s.replace(/[\s|]+/g, ' ').trim().toLowerCase();
    expect(fold((await mark.textContent()) ?? '')).toBe(fold(citation.quote));
    const drawn = page.locator('#page-overlay .citation-boxes rect');
    expect(await drawn.count()).toBe(1);
    const box = await drawn.evaluate((r) => ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a))));
    expect(box).toEqual([citation.bbox.left, citation.bbox.top, citation.bbox.width, citation.bbox.height]);
    // A quote from one table row is boxed as that row, not as the table or the page.
    expect(citation.bbox.height).toBeLessThan(0.05);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('takes files dropped on the page', async () => {
    const bytes = Buffer.from(await textPdf([['A page dropped on the playground.']])).toString('base64');
    const transfer = await page.evaluateHandle((data: string) => {
      const transfer = new (globalThis as any).DataTransfer();
      const raw = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      transfer.items.add(new (globalThis as any).File([raw], 'dropped.pdf', { type: 'application/pdf' }));
      return transfer;
    }, bytes);
    await page.dispatchEvent('#drop-zone', 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });
    const item = page.locator('.document', { hasText: 'dropped.pdf' });
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 60_000 }).toBe('completed');
    // Another document is open, so the new one waits in the list to be opened.
    expect(await page.locator('#viewer-heading').textContent()).toBe('twotables_2.pdf');
    await item.getByRole('button', { name: 'Open dropped.pdf' }).click();
    await page.locator('#viewer-heading', { hasText: 'dropped.pdf' }).waitFor();
    await expect.poll(() => page.locator('#ppanel-text').textContent()).toContain('A page dropped on the playground.');
    expect(problems).toEqual([]);
  });

  it('runs an extraction sent with the upload and shows each cited value on its page', async () => {
    await page.locator('#options summary').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: 'title' }).check();
    await page.locator('#file-input').setInputFiles(path.join(CASE, 'twotables_2.pdf'));
    const items = page.locator('.document', { hasText: 'twotables_2.pdf' });
    await expect.poll(() => items.count()).toBe(2);
    // The newest document is listed first.
    const item = items.first();
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 60_000 }).toBe('completed');
    const id = await item.getAttribute('data-id');
    await item.getByRole('button', { name: 'Open twotables_2.pdf' }).click();
    await page.locator('#viewer-summary code', { hasText: id! }).waitFor();
    const result = (await new Client(server.url, key).get(`/api/v1/documents/${id}`)).json.result;
    const citation = result.citations.find((c: any) => c.path === 'data.title');
    expect(citation?.bbox).toBeTruthy();

    await page.locator('#tab-ask').click();
    const row = page.locator('#extraction-result tr', { hasText: 'title' });
    expect(await row.locator('td').first().textContent()).toBe(result.data.title);
    await row.getByRole('button').press('Enter');
    const drawn = page.locator('#page-overlay .citation-boxes rect');
    await expect.poll(() => drawn.count()).toBe(1);
    expect(await drawn.evaluate((r) => ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a))))).toEqual([citation.bbox.left, citation.bbox.top, citation.bbox.width, citation.bbox.height]);
    expect(await page.locator('#ppanel-text mark.cited').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('draws a key/value pair\'s box over the page when its row is focused', async () => {
    await page.locator('#file-input').setInputFiles({ name: 'form.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await formPdf()) });
    const item = page.locator('.document', { hasText: 'form.pdf' });
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 60_000 }).toBe('completed');
    const id = await item.getAttribute('data-id');
    await item.getByRole('button', { name: 'Open form.pdf' }).click();
    await page.locator('#viewer-summary code', { hasText: id! }).waitFor();
    const pairs = (await new Client(server.url, key).get(`/api/v1/documents/${id}/pages?page=1&include=key_values`)).json.data[0].key_values;
    const name = pairs['Full name'];
    expect(name.bbox).toBeTruthy();

    await page.locator('#ptab-kv').click();
    const row = page.locator('#ppanel-kv tr', { hasText: 'Full name' });
    await row.focus();
    const drawn = page.locator('#page-overlay .focus-boxes rect');
    await expect.poll(() => drawn.count()).toBe(1);
    expect(await drawn.evaluate((r) => ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a))))).toEqual([name.bbox.left, name.bbox.top, name.bbox.width, name.bbox.height]);
    await row.blur();
    await expect.poll(() => drawn.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('lists a document\'s chunks, draws the chosen one\'s boxes on its pages, and cuts again at another size', async () => {
    await page.locator('#file-input').setInputFiles(path.join(CORPUS, 'layout_markdown/docling-normal_4pages/normal_4pages.pdf'));
    const item = page.locator('.document', { hasText: 'normal_4pages.pdf' });
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 90_000 }).toBe('completed');
    const id = await item.getAttribute('data-id');
    await item.getByRole('button', { name: 'Open normal_4pages.pdf' }).click();
    await page.locator('#viewer-summary code', { hasText: id! }).waitFor();
    const api = new Client(server.url, key);
    type Chunk = { index: number; text: string; headings: string[]; pages: number[]; boxes: { page: number; left: number; top: number; width: number; height: number }[]; tokens: number };
    const chunks = (await api.get(`/api/v1/documents/${id}/chunks`)).json.data as Chunk[];
    expect(chunks.length).toBeGreaterThan(1);
    const requested: string[] = [];
    const watch = (request: { url(): string }) => {
      if (request.url().includes('/chunks')) requested.push(new URL(request.url()).search);
    };
    page.on('request', watch);

    // Every chunk is listed, the first chosen.
    await page.locator('#tab-chunks').click();
    const options = page.locator('#chunk-list [role="option"]');
    await expect.poll(() => options.count(), { timeout: 20_000 }).toBe(chunks.length);
    expect(await page.locator('#chunks-status').textContent()).toBe(`${chunks.length} chunks of at most 512 tokens.`);
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    expect(requested).toEqual(['?max_tokens=512']);

    // A chunk from past the first page, across a page break if the document has one, with headings.
    const later = chunks.filter((c) => c.index > 0 && c.pages.some((p) => p > 1) && c.boxes.length > 0);
    const target = later.find((c) => c.pages.length > 1 && c.headings.length) ?? later.find((c) => c.headings.length) ?? later[0];
    expect(target).toBeTruthy();
    const option = options.nth(target.index);
    expect(await option.locator('.chunk-head').textContent()).toBe(`Chunk ${target.index} · ${target.pages.length > 1 ? `pages ${target.pages[0]}–${target.pages.at(-1)}` : `page ${target.pages[0]}`} · ${target.tokens} tokens`);
    if (target.headings.length) expect(await option.locator('.breadcrumb').textContent()).toBe(target.headings.join(' › '));
    // Its text piece by piece as the API cut it, a table as preformatted rows.
    expect(await option.locator('.chunk-text > *').evaluateAll((blocks) => blocks.map((b) => b.textContent))).toEqual(target.text.split('\n\n'));
    await option.click();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#chunk-list [aria-selected="true"]').count()).toBe(1);

    // Its pages' pictures, each with the chunk's boxes on that page where the API puts them.
    const figures = page.locator('#chunk-pictures .chunk-page');
    await expect.poll(() => figures.evaluateAll((all) => all.map((f: any) => Number(f.dataset.page)))).toEqual(target.pages);
    const shownPages = target.pages;
    await expect.poll(() => page.locator('#chunk-pictures img').evaluateAll((all) => all.every((img: any) => img.complete && img.naturalWidth > 500)), { timeout: 20_000 }).toBe(true);
    const onShown = target.boxes.filter((b) => shownPages.includes(b.page));
    expect(await page.locator('#chunk-pictures .chunk-boxes rect').count()).toBe(onShown.length);
    for (const p of shownPages) {
      const drawn = await page.locator(`#chunk-pictures .chunk-page[data-page="${p}"] .chunk-boxes rect`).evaluateAll((rects) => rects.map((r) => ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a)))));
      expect(drawn).toEqual(target.boxes.filter((b) => b.page === p).map((b) => [b.left, b.top, b.width, b.height]));
    }

    // Hovering a neighbouring chunk in the list marks its boxes on the pages shown.
    const neighbour = [chunks[target.index - 1], chunks[target.index + 1]].find((c) => c?.boxes.some((b) => shownPages.includes(b.page)))!;
    expect(neighbour).toBeTruthy();
    const neighbourBoxes = neighbour.boxes.filter((b) => shownPages.includes(b.page));
    await options.nth(neighbour.index).hover();
    expect(await page.locator('#chunk-pictures .focus-boxes rect').count()).toBe(neighbourBoxes.length);
    expect(await options.nth(neighbour.index).getAttribute('class')).toContain('hovered');

    // Clicking its region on a page chooses it, and the focus goes to it in the list.
    const region = neighbourBoxes[0];
    const canvas = page.locator(`#chunk-pictures .chunk-page[data-page="${region.page}"] .page-canvas`);
    const size = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: (region.left + region.width / 2) * size.width, y: (region.top + region.height / 2) * size.height } });
    expect(await options.nth(neighbour.index).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe(`chunk-${neighbour.index}`);
    expect(await page.locator('#chunk-pictures .chunk-boxes rect').count()).toBe(neighbour.boxes.filter((b) => neighbour.pages.includes(b.page)).length);
    // The arrow keys move through the list.
    await page.keyboard.press('ArrowDown');
    expect(await options.nth(neighbour.index + 1).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe(`chunk-${neighbour.index + 1}`);

    // A smaller cut is fetched again (once, though the field's change and the form's submit both ask) and gives more chunks.
    const small = (await api.get(`/api/v1/documents/${id}/chunks?max_tokens=128`)).json.data as Chunk[];
    expect(small.length).toBeGreaterThan(chunks.length);
    await page.locator('#chunks-max-tokens').fill('128');
    await page.locator('#chunks-max-tokens').press('Enter');
    // (While it is on its way the status says "Cutting … at most 128 tokens…".)
    await page.locator('#chunks-status', { hasText: `${small.length} chunks of at most 128 tokens.` }).waitFor();
    expect(await options.count()).toBe(small.length);
    expect(requested).toEqual(['?max_tokens=512', '?max_tokens=128']);
    expect(await page.locator('#chunk-list [aria-selected="true"]').count()).toBe(1);
    expect(await page.locator('#chunk-list [role="option"] .chunk-head').evaluateAll((heads) => heads.map((h) => Number(/\d+ tokens/.exec(h.textContent ?? '')?.[0].split(' ')[0])))).toEqual(small.map((c) => c.tokens));
    // Out of range: said so, and nothing fetched.
    await page.locator('#chunks-max-tokens').fill('20');
    await page.locator('#chunks-max-tokens').press('Enter');
    await page.locator('#chunks-status .error').waitFor();
    expect(await page.locator('#chunks-max-tokens').getAttribute('aria-invalid')).toBe('true');
    expect(requested).toHaveLength(2);
    await page.locator('#chunks-max-tokens').fill('128');
    await page.locator('#chunks-max-tokens').press('Enter');
    expect(await page.locator('#chunks-max-tokens').getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('#chunks-status').textContent()).toBe(`${small.length} chunks of at most 128 tokens.`);
    expect(requested).toHaveLength(2);
    page.off('request', watch);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground-chunks.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('lists an Office document\'s chunks without page pictures, which such files have none of', async () => {
    const docx = docxPackage({ paragraphs: 60, paragraphsPerPage: 20, table: { rows: 4, columns: 3 } });
    await page.locator('#file-input').setInputFiles({ name: 'minutes.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(docx) });
    const item = page.locator('.document', { hasText: 'minutes.docx' });
    await expect.poll(async () => item.locator('.status').textContent(), { timeout: 60_000 }).toBe('completed');
    const id = await item.getAttribute('data-id');
    await item.getByRole('button', { name: 'Open minutes.docx' }).click();
    await page.locator('#viewer-summary code', { hasText: id! }).waitFor();
    const chunks = (await new Client(server.url, key).get(`/api/v1/documents/${id}/chunks?max_tokens=128`)).json.data as { headings: string[]; text: string }[];
    const previews: string[] = [];
    const watch = (request: { url(): string }) => {
      if (request.url().includes('/preview')) previews.push(request.url());
    };
    page.on('request', watch);

    // The max-tokens field keeps the last size chosen (128, in the test before).
    await page.locator('#tab-chunks').click();
    const options = page.locator('#chunk-list [role="option"]');
    await page.locator('#chunks-status', { hasText: `${chunks.length} chunks of at most 128 tokens.` }).waitFor({ timeout: 20_000 });
    expect(await options.count()).toBe(chunks.length);
    expect(await page.locator('#chunks-view').getAttribute('class')).toContain('no-pictures');
    expect(await page.locator('#chunk-pictures').isVisible()).toBe(false);
    await options.nth(1).click();
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#chunk-pictures *').count()).toBe(0);
    expect(previews).toEqual([]);
    // The table's chunk shows it as preformatted rows, under the heading it stands in.
    const table = chunks.findIndex((c) => c.text.includes('| R1C1 |'));
    expect(table).toBeGreaterThanOrEqual(0);
    expect(await options.nth(table).locator('pre.chunk-table').textContent()).toContain('| R2C1 | R2C2 | R2C3 |');
    expect(await options.nth(table).locator('.breadcrumb').textContent()).toBe(chunks[table].headings.join(' › '));
    page.off('request', watch);
    expect(problems).toEqual([]);
  });

  it('keeps the key across a reload of the tab and forgets it on request', async () => {
    await page.reload();
    await page.getByText(/Using key ak_test_/).waitFor();
    await page.locator('.document', { hasText: 'dropped.pdf' }).waitFor();
    await page.getByRole('button', { name: 'Forget key' }).click();
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('folio.playground.key'))).toBeNull();
    expect(await page.locator('#upload-section').isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });
});
