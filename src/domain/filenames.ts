// A document's `filename` as Folio keeps it: what the client called the file, without control
// characters (U+0000 cannot be stored in PostgreSQL text, and the others only garble logs and
// headers), without the bidirectional controls that make a name display as another (a
// right-to-left override turns `invoice\u202efdp.exe` into what reads as `invoiceexe.pdf`), and
// at most 255 characters, like the file systems it came from.
export const MAX_FILENAME_CHARS = 255;

/** C0 and C1 controls, DEL, and the bidirectional marks, embeddings, overrides and isolates. */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function cleanFilename(name: string, fallback: string): string {
  const cleaned = [...name.replace(UNSHOWABLE, '')].slice(0, MAX_FILENAME_CHARS).join('').trim();
  return cleaned || fallback;
}
