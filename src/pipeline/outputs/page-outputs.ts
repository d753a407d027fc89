// Every output of one page, computed once from the page model: what is stored for the page and
// what the model reads. A query asked later reads the same outputs back from the store.
import type { Page } from '../page-model.js';
import { pageKeyValues, type WireKeyValue } from './key-values.js';
import { pageLayout, type LayoutElement } from './layout.js';
import { pageMarkdown } from './markdown.js';
import { pageTables, type WireTable } from './tables.js';
import { pageText } from './text.js';

export interface PageOutputs {
  page: number;
  text: string;
  wordCount: number;
  tables: WireTable[];
  keyValues: Record<string, WireKeyValue>;
  layout: LayoutElement[];
  markdown: string | null;
}

export function pageOutputs(page: Page, withMarkdown: boolean): PageOutputs {
  return {
    page: page.number,
    text: pageText(page),
    wordCount: page.words.length,
    tables: pageTables(page),
    keyValues: pageKeyValues(page),
    layout: pageLayout(page),
    markdown: withMarkdown ? pageMarkdown(page) : null,
  };
}

/** The outputs as stored (JSON columns), read back. */
export function outputsFromRow(row: { page_number: number; text: string; word_count: number; tables: string; key_values: string; layout: string; markdown: string | null }): PageOutputs {
  return {
    page: row.page_number,
    text: row.text,
    wordCount: row.word_count,
    tables: JSON.parse(row.tables) as WireTable[],
    keyValues: JSON.parse(row.key_values) as Record<string, WireKeyValue>,
    layout: JSON.parse(row.layout) as LayoutElement[],
    markdown: row.markdown,
  };
}
