// `include=layout`: the page's elements with type, text, box as fractions of the page, and
// reading-order index.
import { fractionBox, type LayoutElement } from '../../page-outputs/shapes.js';
import { blockText } from '../analysis/analyze-page.js';
import type { Page } from '../page-model.js';
import { tableMarkdown } from './tables.js';



export function pageLayout(page: Page): LayoutElement[] {
  return page.blocks.map((block, order) => {
    const element: LayoutElement = {
      type: block.type,
      text:
        block.type === 'figure'
          ? (page.figures[block.figure!]?.caption ?? '')
          : block.type === 'table'
            ? tableMarkdown(page.tables[block.table!])
            : blockText(block, page),
      bbox: fractionBox(block.box, page.width, page.height),
      reading_order: order,
    };
    if (block.type === 'heading' && block.level !== undefined) element.level = block.level;
    if (block.type === 'figure') element.figure_index = page.figures[block.figure!]?.index ?? null;
    if (block.lines.length) {
      element.lines = block.lines.map((index) => {
        const line = page.lines[index];
        return { text: line.words.map((w) => page.words[w].text).join(' '), bbox: fractionBox(line.box, page.width, page.height) };
      });
    }
    return element;
  });
}
