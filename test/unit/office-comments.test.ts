// Reviewer comments (issue 23), one rule in DOCX, PPTX and XLSX alike: a comment ends the page it
// is anchored on as "[author: Name (Initials), time: ISO 8601]: text", a reply after the comment it
// answers.
import { describe, expect, it } from 'vitest';
import { commentTime } from '../../src/pipeline/formats/office/comments.js';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import { readPptx } from '../../src/pipeline/formats/office/pptx.js';
import { typesetPage, type OfficeItem } from '../../src/pipeline/formats/office/structure.js';
import { readXlsx } from '../../src/pipeline/formats/office/xlsx.js';
import { presentationPackage, wordPackage, workbookPackage } from '../helpers/office.js';

const texts = (items: OfficeItem[]) => items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : i.kind));

describe('reviewer comments', () => {
  it('writes times as ISO 8601 to the millisecond, with the zone the file gives', () => {
    expect(commentTime('2026-06-18T17:12:37.41')).toBe('2026-06-18T17:12:37.410');
    expect(commentTime('2026-01-04T05:48:07Z')).toBe('2026-01-04T05:48:07.000+00:00');
    expect(commentTime('2024-03-01T09:05')).toBe('2024-03-01T09:05:00.000');
    expect(commentTime('yesterday')).toBe('yesterday');
  });

  it("ends the Word page holding a comment's anchor with the comment, in anchor order, and the document with one whose anchor is gone", () => {
    const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const body = [
      `<w:p>${run('The budget is final.')}</w:p>`,
      `<w:p>${run('Page two starts here.')}<w:r><w:br w:type="page"/></w:r></w:p>`,
      `<w:p><w:commentRangeStart w:id="1"/>${run('Costs rise by 4%.')}<w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r>${run(' Revenue too.')}<w:r><w:commentReference w:id="0"/></w:r></w:p>`,
    ].join('');
    const pages = readDocx(
      wordPackage({
        body,
        comments: [
          { author: 'Jane Editor', initials: 'JE', date: '2026-01-04T05:48:07Z', text: 'Which figure?' },
          { author: 'John Doe', text: 'Source for this?' },
          { author: 'Nobody', text: 'A comment on text since deleted.' },
        ],
      }),
    );
    expect(pages.map(texts)).toEqual([
      ['paragraph:The budget is final.', 'paragraph:Page two starts here.'],
      [
        'paragraph:Costs rise by 4%. Revenue too.',
        'footnote:[author: John Doe]: Source for this?',
        'footnote:[author: Jane Editor (JE), time: 2026-01-04T05:48:07.000+00:00]: Which figure?',
        'footnote:[author: Nobody]: A comment on text since deleted.',
      ],
    ]);
  });

  it('ends a sheet with its comments in cell order, a thread in place of its classic copy', () => {
    const [sheet] = readXlsx(
      workbookPackage([
        {
          name: 'Ducks',
          cells: { A1: 'Year', B1: 'Count', A2: 2019, B2: 120, A3: 2020, B3: 80 },
          notes: { B3: { author: 'John Reviewer', text: 'So low?' }, A1: { author: 'Jane Editor', text: 'Calendar years.' } },
          threads: {
            B2: [
              { author: 'Jane Smith (JS)', date: '2026-06-18T17:12:37.41', text: 'Highest count' },
              { author: 'Marcus Sterling (MS)', date: '2026-06-18T17:15:52.31', text: 'Agreed' },
            ],
          },
        },
      ]),
    );
    expect(texts(sheet).filter((t) => t.startsWith('footnote'))).toEqual([
      'footnote:[author: Jane Editor]: Calendar years.',
      'footnote:[author: Jane Smith (JS), time: 2026-06-18T17:12:37.410]: Highest count',
      'footnote:[author: Marcus Sterling (MS), time: 2026-06-18T17:15:52.310]: Agreed',
      'footnote:[author: John Reviewer]: So low?',
    ]);
  });

  it("follows a slide's content with its comments, classic or modern (with replies), set below the slide", () => {
    const slides = [
      { title: 'Plan', bullets: ['Hire', 'Build'], comments: [{ author: 'John Reviewer', initials: 'JR', date: '2024-01-15T10:30:00.000', text: 'A sample reviewer comment', replies: [{ author: 'Jane Smith', initials: 'JS', date: '2024-01-15T11:00:00.000', text: 'A sample response' }] }] },
      { title: 'No remarks' },
    ];
    const classic = readPptx(presentationPackage(slides));
    expect(texts(classic[0].items)).toEqual([
      'title:Plan',
      'list_item:Hire',
      'list_item:Build',
      'footnote:[author: John Reviewer (JR), time: 2024-01-15T10:30:00.000]: A sample reviewer comment',
    ]);
    expect(texts(classic[1].items)).toEqual(['title:No remarks']);
    const page = typesetPage(1, classic[0].items, 'layout', { width: classic[0].width, height: classic[0].height });
    const notes = page.blocks.filter((b) => b.type === 'footnote');
    expect(notes[0].box.y0).toBeGreaterThanOrEqual(classic[0].height);
    expect(page.height).toBeGreaterThan(notes[0].box.y1);
    expect(typesetPage(2, classic[1].items, 'layout', { width: classic[1].width, height: classic[1].height }).height).toBe(classic[1].height);
    const modern = readPptx(presentationPackage(slides, 'modern'));
    expect(texts(modern[0].items).slice(3)).toEqual([
      'footnote:[author: John Reviewer (JR), time: 2024-01-15T10:30:00.000]: A sample reviewer comment',
      'footnote:[author: Jane Smith (JS), time: 2024-01-15T11:00:00.000]: A sample response',
    ]);
  });
});
