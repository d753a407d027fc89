// Accents as browsers print them: text written with combining marks (NFD: "n" then U+0303) is
// drawn by Chromium as a letter and a mark whose box need not lie over the letter; the mark is the
// letter's, by Unicode's order, and the word reads composed ("años", not "an˜os"). Needs Chromium
// (apt-get install chromium), as the generated bench does.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../bench/generated/chromium.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { pageText } from '../../src/pipeline/outputs/text.js';

const WORDS = ['años', 'Mináč', 'façade', 'Größe', 'žluťoučký', 'Ångström', 'crème', 'zażółć'];

async function printed(html: string): Promise<Uint8Array> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    return new Uint8Array(await page.pdf({ format: 'A4', margin: { top: '3cm', bottom: '3cm', left: '2cm', right: '2cm' } }));
  } finally {
    await browser.close();
  }
}

describe('accented words printed by a browser', { timeout: 60_000 }, () => {
  it('read composed whether the file holds them composed or as letters and combining marks', async () => {
    const line = (form: 'NFC' | 'NFD', family: string) => `<p style="font-family: ${family}; font-size: 11pt">${WORDS.map((w) => w.normalize(form)).join(' ')}</p>`;
    const html = `<!doctype html><meta charset="utf-8"><body>${['serif', 'sans-serif', 'monospace'].flatMap((f) => [line('NFC', f), line('NFD', f)]).join('')}</body>`;
    const [page] = analyzeDocument(await readPdf(await printed(html)));
    const words = pageText(page).split(/\s+/).filter(Boolean);
    for (const word of WORDS) expect(words.filter((w) => w === word), word).toHaveLength(6);
    expect(pageText(page)).not.toMatch(/[\u02DC\u00B4\u00A8\u02C7\u0300-\u036F]/);
  });
});
