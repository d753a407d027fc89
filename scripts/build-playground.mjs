// Builds the playground that `folio serve` offers at `/`: its TypeScript bundled (with the
// `folio-api/client` it calls and the markdown renderer) into one script, next to its page and styles,
// in dist/playground. Run by `npm run build`, so `npm install` leaves it ready; nothing is fetched
// by the browser from anywhere but Folio itself.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';

const source = new URL('../src/playground/', import.meta.url);
const out = new URL('../dist/playground/', import.meta.url);
await mkdir(out, { recursive: true });
await build({
  entryPoints: [new URL('main.ts', source).pathname],
  outfile: new URL('app.js', out).pathname,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'playground.css']) await copyFile(new URL(file, source), new URL(file, out));
