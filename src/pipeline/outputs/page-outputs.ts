// Every output of one page, computed once from the page model: what is stored for the page and
// what the model reads. A query asked later reads the same outputs back from the store.
import type { PageOutputs } from '../../page-outputs/shapes.js';
import type { Page } from '../page-model.js';
import { pageKeyValues } from './key-values.js';
import { pageLayout } from './layout.js';
import { pageMarkdown } from './markdown.js';
import { pageTables } from './tables.js';
import { pageText } from './text.js';


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
