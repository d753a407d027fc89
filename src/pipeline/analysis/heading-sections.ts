// A heading heads a section, and a document's sections open at its top rank. Two kinds of block
// set large for show head nothing, and are paragraphs:
// - one followed, before any text, by a larger heading or the title (a kicker over a headline, a
//   subtitle over the first section);
// - the block right under the title, smaller than a heading later on the page: the first section
//   cannot rank below a later one, so the block belongs to the title (its subtitle), though
//   author lines may stand between it and the first heading.
// A numbered block stays a heading: numbering says it is a section, if an empty one. Told on each
// page, in reading order, once its blocks are typed: pages are analysed in batches, apart.
import type { Block, Page } from '../page-model.js';
import { avgSize } from './block-types.js';
import { SECTION_NUMBER } from './markers.js';

/** How much larger the other heading must be set: more than the measure's rounding and OCR's wobble. */
const LARGER = 1.1;

function numbered(block: Block, page: Pick<Page, 'lines' | 'words'>): boolean {
  const words = block.lines.flatMap((l) => page.lines[l].words);
  return words.length > 1 && SECTION_NUMBER.test(page.words[words[0]].text);
}

/** Turns the headings among a page's blocks (its text in reading order, furniture apart) that head nothing into paragraphs, in place. */
export function demoteHeadingsHeadingNothing(blocks: Block[], page: Pick<Page, 'lines' | 'words' | 'figures'>): void {
  const sizes = blocks.map((block) => avgSize(block, page));
  // A picture with no words of its own, labels or caption, is no text between them (an ornament
  // over the headline); a chart is.
  const ornament = (block: Block) => block.type === 'figure' && block.figure !== undefined && !page.figures[block.figure]?.text && !page.figures[block.figure]?.caption;
  const demoted = blocks.filter((block, i) => {
    if (block.type !== 'heading' || numbered(block, page)) return false;
    let n = i + 1;
    while (n < blocks.length && ornament(blocks[n])) n++;
    if (n < blocks.length && (blocks[n].type === 'heading' || blocks[n].type === 'title') && sizes[n] > sizes[i] * LARGER) return true;
    if (blocks[i - 1]?.type !== 'title') return false;
    return blocks.some((later, k) => k > i && later.type === 'heading' && sizes[k] > sizes[i] * LARGER);
  });
  for (const block of demoted) {
    block.type = 'paragraph';
    delete block.level;
  }
}
