// The tesseract command on a scan's own page pictures, with the models and languages Folio reads
// with: what the engine alone makes of the pages, beside which Folio's OCR is judged (its
// character error rate should stay within 0.01 of this one's on the same pages).
import { spawn } from 'node:child_process';

export interface PeerOcr {
  /** The models' folder (`--tessdata-dir`) and the languages, as Folio's configuration names them. */
  modelDir: string;
  languages: string[];
}

/** The text tesseract reads from one picture (PNG or JPEG bytes) at `dpi`, page segmentation 3, as Folio's first reading. */
export function tesseractText(picture: Buffer, dpi: number, peer: PeerOcr): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', ['stdin', 'stdout', '--tessdata-dir', peer.modelDir, '-l', peer.languages.join('+'), '--oem', '1', '--psm', '3', '--dpi', String(dpi)], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`tesseract exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(picture);
  });
}

/** A scan's pages read one after another, as one text (pages apart by a blank line). */
export async function tesseractDocument(pictures: Buffer[], dpi: number, peer: PeerOcr): Promise<string> {
  const pages: string[] = [];
  for (const picture of pictures) pages.push(await tesseractText(picture, dpi, peer));
  return pages.join('\n\n');
}
