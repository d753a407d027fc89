import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
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
    const d = await (await fetch(`http://127.0.0.1:8391/api/v1/documents/${j.id}?include=usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    if (d.status === 'completed' || d.status === 'failed') { console.log(name, bytes.length, 'bytes', d.page_count, 'pages', d.status, Date.now() - t0, 'ms', JSON.stringify(d.timings ?? d.usage ?? '').slice(0, 300)); break; }
    await new Promise((r) => setTimeout(r, 200));
  }
}
const blank = await PDFDocument.create();
for (let i = 0; i < 100; i++) blank.addPage([612, 792]);
await run('blank.pdf', await blank.save());
const shared = await PDFDocument.create();
const png = await sharp({ create: { width: 400, height: 100, channels: 3, background: 'white' } }).png().toBuffer();
const img = await shared.embedPng(png);
for (let i = 0; i < 100; i++) shared.addPage([612, 792]).drawImage(img, { x: 0, y: 0, width: 612, height: 792 });
const bytes = await shared.save();
await run('shared-image.pdf', bytes);
