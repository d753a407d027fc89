// A document's `filename` as Folio keeps it: what the client called the file, without control
// characters (U+0000 cannot be stored in PostgreSQL text, and the others only garble logs and
// headers) and at most 255 characters, like the file systems it came from.
export const MAX_FILENAME_CHARS = 255;

export function cleanFilename(name: string, fallback: string): string {
  const cleaned = [...name.replace(/[\u0000-\u001f\u007f]/g, '')].slice(0, MAX_FILENAME_CHARS).join('').trim();
  return cleaned || fallback;
}
