import { writeFileSync, readFileSync } from 'node:fs';
import { manyFrames, tiffFrames } from '/work/main/test/helpers/tiffs.ts';
const ws = JSON.parse(readFileSync('/tmp/fd/ws.json', 'utf8'));
const key = ws.keys.test;
async function run(name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const t0 = Date.now();
  const r = await fetch('http://127.0.0.1:8391/api/v1/documents', { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  const j = await r.json();
  if (r.status !== 202) { console.log(name, r.status, JSON.stringify(j)); return; }
  for (;;) {
    const d = await (await fetch(`http://127.0.0.1:8391/api/v1/documents/${j.id}`, { headers: { authorization: `Bearer ${key}` } })).json();
    if (d.status === 'completed' || d.status === 'failed') { console.log(name, bytes.length, 'bytes', d.page_count, 'pages', d.status, Date.now() - t0, 'ms', d.error?.message ?? ''); break; }
    await new Promise((r) => setTimeout(r, 200));
  }
}
await run('tiny.tiff', manyFrames(100, 1, 1));
await run('small.tiff', manyFrames(100, 64, 64));
await run('blank.tiff', tiffFrames(Array.from({length: 20}, () => ({width: 1700, height: 2200, dpi: 200}))));
