// Reviewer comments, as Word, PowerPoint and Excel keep them in parts of their own, are read, in
// all three alike, at the end of the page they are anchored on (the Word page holding the comment's
// reference, the slide, the sheet), each as one line that says who wrote it and when:
//   [author: Jane Smith (JS), time: 2026-06-18T17:12:37.410]: Why Python specifically?
// A reply follows the comment it answers. They are footnote items: notes on the page, not its body.
import type { OfficeItem } from './structure.js';

export interface ReviewComment {
  author?: string;
  /** The author's initials, where the file keeps them apart from the name. */
  initials?: string;
  /** When it was written, as the file records it (ISO 8601). */
  date?: string;
  text: string;
}

/**
 * A time as ISO 8601 to the millisecond, and its zone when the file gives one ("Z" written
 * +00:00): "2026-06-18T17:12:37.41" is 2026-06-18T17:12:37.410. Anything else as given.
 */
export function commentTime(raw: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(raw.trim());
  if (!m) return raw.trim();
  const zone = m[5] === 'Z' ? '+00:00' : (m[5]?.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') ?? '');
  return `${m[1]}T${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0').slice(0, 3)}${zone}`;
}

/** The comment's line: "[author: Name (Initials), time: …]: text"; what the file does not record is left out. */
export function commentLine(comment: ReviewComment): string {
  const about: string[] = [];
  const author = comment.author?.trim();
  if (author) about.push(`author: ${author}${comment.initials?.trim() ? ` (${comment.initials.trim()})` : ''}`);
  if (comment.date?.trim()) about.push(`time: ${commentTime(comment.date)}`);
  const text = comment.text.replace(/\s+/g, ' ').trim();
  return about.length ? `[${about.join(', ')}]: ${text}` : text;
}

/** Comments as the footnote items that end their page; those without text are left out. */
export function commentItems(comments: ReviewComment[]): OfficeItem[] {
  return comments.filter((c) => c.text.trim()).map((c) => ({ kind: 'footnote', text: commentLine(c) }));
}
