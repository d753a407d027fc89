// Retrieval check of page embeddings (issue 9).
//
//   npm run bench:retrieval      (builds, then runs this file with tsx)
//
// Sends a few multi-page corpus documents with `embeddings: true` (test key, so free and with the
// built-in embedding, DECISIONS D3), reads every page's vector from
// `GET /documents/{id}/pages?include=embeddings`, embeds each question below with the same built-in
// embedding (from dist/, the code the server runs), ranks the document's pages by cosine
// similarity and checks where the page that answers lands. Prints hit@1, hit@3 and the mean
// reciprocal rank next to what picking a page at random would give (chance), and writes
// bench/results/retrieval-<ISO date>.json. The questions are worded by hand, not copied from the
// pages, so they share some words with the answer and not others.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, CORPUS, Installation, type Server } from '../test/helpers/folio.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Question {
  question: string;
  /** Pages that answer it (1-based). */
  pages: number[];
}

const DOCUMENTS: { file: string; questions: Question[] }[] = [
  {
    file: 'layout_markdown/docling-redp5110_sampled/redp5110_sampled.pdf',
    questions: [
      { question: 'How many data breaches has the Identity Theft Resource Center counted since 2005?', pages: [5] },
      { question: 'Why does a company need a security policy before securing its information assets?', pages: [6] },
      { question: 'Which CL commands display or change function usage IDs?', pages: [8] },
      { question: 'How does the CREATE PERMISSION statement define row access rules?', pages: [10] },
      { question: 'Which special register holds the effective user including adopted authority?', pages: [11] },
      { question: 'Which built-in global variable gives the IP address of the client?', pages: [12] },
      { question: 'How is RCAC activated once the row permission and column masks exist?', pages: [14] },
      { question: 'What does Visual Explain show for a query when RCAC is enabled?', pages: [15] },
    ],
  },
  {
    file: 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf',
    questions: [
      { question: 'Wann heißt ein topologischer Raum hausdorffsch?', pages: [12] },
      { question: 'Was ist eine n-dimensionale Karte und ein Atlas auf einem topologischen Raum?', pages: [28] },
      { question: 'Wie wird die Fundamentalgruppe im Basispunkt zu einer Gruppe?', pages: [52] },
      { question: 'Satz des Pythagoras: wie viele euklidische Ebenen gibt es bis auf Isometrie?', pages: [80] },
      { question: 'Wie nennt man die Weingarten-Abbildung noch?', pages: [100] },
    ],
  },
];

interface Outcome {
  file: string;
  question: string;
  expected: number[];
  rank: number;
  top: number;
  pages: number;
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

async function main(): Promise<void> {
  const { embedText } = (await import(path.join(ROOT, 'dist/models/embeddings/builtin.js'))) as typeof import('../src/models/embeddings/builtin.js');
  const install = await Installation.create();
  let server: Server | null = null;
  const outcomes: Outcome[] = [];
  try {
    const workspace = await install.workspace();
    server = await install.start();
    const client = new Client(server.url, workspace.test);
    for (const document of DOCUMENTS) {
      const bytes = await readFile(path.join(CORPUS, document.file));
      const accepted = await client.upload([['file', path.basename(document.file), bytes]], { embeddings: true });
      const doc = await client.waitFor(accepted.json.id, 300_000);
      if (doc.status !== 'completed') throw new Error(`${document.file}: ${doc.status} ${JSON.stringify(doc.error)}`);
      const pages: { page: number; embedding: { model: string; vector: number[] } }[] = (await client.get(`/api/v1/documents/${doc.id}/pages?include=embeddings`)).json.data;
      for (const q of document.questions) {
        const asked = embedText(q.question, 1024);
        const ranked = pages.map((p) => ({ page: p.page, score: cosine(asked, p.embedding.vector) })).sort((a, b) => b.score - a.score);
        const rank = ranked.findIndex((r) => q.pages.includes(r.page)) + 1;
        outcomes.push({ file: document.file, question: q.question, expected: q.pages, rank, top: ranked[0].page, pages: pages.length });
        console.log(`${String(rank).padStart(3)}/${pages.length}  top p${String(ranked[0].page).padEnd(4)} ${q.question}`);
      }
    }
  } finally {
    await server?.stop();
    await install.destroy();
  }
  const n = outcomes.length;
  const hit1 = outcomes.filter((o) => o.rank === 1).length / n;
  const hit3 = outcomes.filter((o) => o.rank >= 1 && o.rank <= 3).length / n;
  const mrr = outcomes.reduce((sum, o) => sum + (o.rank ? 1 / o.rank : 0), 0) / n;
  const chance1 = outcomes.reduce((sum, o) => sum + o.expected.length / o.pages, 0) / n;
  const chance3 = outcomes.reduce((sum, o) => sum + Math.min(1, (3 * o.expected.length) / o.pages), 0) / n;
  const figures = { questions: n, hit_at_1: hit1, hit_at_3: hit3, mrr, chance_hit_at_1: chance1, chance_hit_at_3: chance3 };
  console.log(
    `\nretrieval: ${n} questions | hit@1 ${hit1.toFixed(2)} (chance ${chance1.toFixed(2)}) | hit@3 ${hit3.toFixed(2)} (chance ${chance3.toFixed(2)}) | MRR ${mrr.toFixed(2)}`,
  );
  const out = path.join(ROOT, 'bench/results', `retrieval-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ figures, outcomes }, null, 1)}\n`);
  console.log(`wrote ${path.relative(ROOT, out)}`);
}

await main();
