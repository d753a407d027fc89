// `folio parse FILE...`: the command-line client. Sends each file to a running Folio (FOLIO_URL,
// FOLIO_API_KEY) through the TypeScript client, shows each file's progress (a bar per file on a
// terminal, plain lines otherwise), and writes what Folio read next to the other results:
// `<name>.json` (the document with its pages, tables, key/values and result), with `--markdown`
// `<name>.md`, and with `--chunks` `<name>.chunks.jsonl` (a chunk a line). Exits 1 when any file failed, with its error type on stderr.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FolioApiError, FolioClient, type Document, type DocumentOptions } from '../client/index.js';

const USAGE = `Usage: folio parse FILE... [--markdown] [--chunks] [--read] [--pages RANGES] [--extract FIELDS|SCHEMA.json] [--ask "question"]... [--out DIR]
  FILE                 PDF, image or Office file (several at once are sent in parallel)
  --markdown           also write <name>.md
  --chunks             also write <name>.chunks.jsonl: the document cut for retrieval, a chunk a line
  --read               text only (analysis: read, the cheaper price)
  --pages RANGES       read (and pay for) only these pages, e.g. 1-3,7
  --extract FIELDS     comma-separated built-in fields (title,document_type,summary,dates,parties,amounts,key_facts)
  --extract FILE.json  a JSON Schema (type: object) to fill
  --ask "question"     a question about the document; repeat for more
  --out DIR            where results go (default: the current directory)
Environment: FOLIO_URL (default http://127.0.0.1:8080), FOLIO_API_KEY (required).`;

/** The order a document's stages come in, for the progress bar. */
const STAGE_ORDER = ['received', 'fetching', 'analyzing', 'rendering', 'reserving', 'extracting', 'embedding', 'finalizing', 'done'];
const PARALLEL = 4;

interface Progress {
  name: string;
  state: string;
  stage: string;
  pages: number | null;
}

/** Draws one line per file; on a terminal the block is redrawn in place. */
class ProgressView {
  private drawn = 0;
  private readonly last = new Map<string, string>();

  constructor(
    private readonly items: Progress[],
    private readonly tty: boolean,
    private readonly stream: NodeJS.WriteStream,
  ) {}

  update(): void {
    if (this.tty) {
      const width = Math.max(...this.items.map((i) => i.name.length));
      const lines = this.items.map((item) => {
        const step = Math.max(0, STAGE_ORDER.indexOf(item.stage));
        const fraction = item.state === 'completed' ? 1 : step / (STAGE_ORDER.length - 1);
        const filled = Math.round(fraction * 20);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}]`;
        const pages = item.pages === null ? '' : ` ${item.pages} page${item.pages === 1 ? '' : 's'}`;
        return `${item.name.padEnd(width)} ${bar} ${item.state === 'processing' ? item.stage : item.state}${pages}`;
      });
      // Back to the top of the block, then each line cleared and written again.
      if (this.drawn) this.stream.write(`\x1b[${this.drawn}A`);
      this.stream.write(lines.map((l) => `\x1b[2K${l}\n`).join(''));
      this.drawn = lines.length;
      return;
    }
    for (const item of this.items) {
      const line = `${item.name}: ${item.state === 'processing' ? item.stage : item.state}${item.pages === null ? '' : ` (${item.pages} pages)`}`;
      if (this.last.get(item.name) === line) continue;
      this.last.set(item.name, line);
      this.stream.write(`${line}\n`);
    }
  }
}

async function optionsFrom(values: { markdown?: boolean; read?: boolean; pages?: string; extract?: string; ask?: string[] }): Promise<DocumentOptions> {
  const options: DocumentOptions = {};
  if (values.read) options.analysis = 'read';
  if (values.pages !== undefined) options.pages = values.pages;
  if (values.markdown) options.markdown = true;
  if (values.extract) {
    if (values.extract.endsWith('.json')) {
      const schema = JSON.parse(await readFile(values.extract, 'utf8')) as Record<string, unknown>;
      options.extraction = { schema };
    } else {
      options.extraction = { fields: values.extract.split(',').map((f) => f.trim()).filter(Boolean) as NonNullable<NonNullable<DocumentOptions['extraction']>['fields']> };
    }
  }
  if (values.ask?.length) options.queries = values.ask;
  return options;
}

/** A result file name from the input's name, unique within this run. */
function outputName(file: string, taken: Set<string>): string {
  const base = path.basename(file).replace(/\.[^.]+$/, '') || 'document';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

export async function runParse(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        markdown: { type: 'boolean' },
        chunks: { type: 'boolean' },
        read: { type: 'boolean' },
        pages: { type: 'string' },
        extract: { type: 'string' },
        ask: { type: 'string', multiple: true },
        out: { type: 'string', default: '.' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) {
    process.stderr.write(`No file given.\n${USAGE}\n`);
    return 2;
  }
  const apiKey = process.env.FOLIO_API_KEY;
  if (!apiKey) {
    process.stderr.write(`FOLIO_API_KEY is not set: create a key with \`folio admin key create\` or \`folio admin workspace create\`.\n`);
    return 2;
  }
  if (values.markdown && values.read) {
    process.stderr.write('--markdown needs the layout analysis; leave out --read.\n');
    return 2;
  }
  const client = new FolioClient({ baseUrl: process.env.FOLIO_URL || 'http://127.0.0.1:8080', apiKey });
  let options: DocumentOptions;
  try {
    options = await optionsFrom(values);
  } catch (error) {
    process.stderr.write(`--extract: ${(error as Error).message}\n`);
    return 2;
  }
  const outDir = path.resolve(values.out ?? '.');
  await mkdir(outDir, { recursive: true });

  const taken = new Set<string>();
  const jobs = positionals.map((file) => ({ file, output: outputName(file, taken), progress: { name: path.basename(file), state: 'uploading', stage: 'received', pages: null } as Progress }));
  const view = new ProgressView(
    jobs.map((j) => j.progress),
    Boolean(process.stderr.isTTY),
    process.stderr,
  );
  view.update();
  const failures: string[] = [];

  const one = async (job: (typeof jobs)[number]) => {
    const { progress } = job;
    try {
      const data = await readFile(job.file);
      const accepted = await client.submitFile({ data, filename: path.basename(job.file) }, { options });
      progress.state = 'queued';
      view.update();
      const document = await client.waitUntilDone(accepted.id, {
        intervalMs: 300,
        maxIntervalMs: 2000,
        onProgress: (d: Document) => {
          progress.state = d.status;
          progress.stage = d.stage;
          progress.pages = d.page_count || null;
          view.update();
        },
      });
      if (document.status !== 'completed') {
        const error = document.error;
        failures.push(`${job.file}: ${document.status}${error ? ` ${error.type}: ${error.message}` : ''}`);
        return;
      }
      const full = await client.getDocument(document.id, { include: ['pages', 'tables', 'key_values', ...(values.markdown ? (['markdown'] as const) : [])] });
      const { markdown, ...rest } = full;
      await writeFile(path.join(outDir, `${job.output}.json`), `${JSON.stringify(rest, null, 2)}\n`);
      if (values.markdown && markdown !== undefined) await writeFile(path.join(outDir, `${job.output}.md`), markdown);
      if (values.chunks) {
        const chunks = (await client.getChunks(document.id)).data;
        await writeFile(path.join(outDir, `${job.output}.chunks.jsonl`), chunks.map((chunk) => `${JSON.stringify(chunk)}\n`).join(''));
      }
    } catch (error) {
      progress.state = 'failed';
      const reason = error instanceof FolioApiError ? `${error.type}: ${error.message}` : (error as Error).message;
      failures.push(`${job.file}: ${reason}`);
    } finally {
      view.update();
    }
  };

  // A few files at a time; the server queues the rest anyway.
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, jobs.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await one(job);
    }),
  );
  for (const failure of failures) process.stderr.write(`failed ${failure}\n`);
  const written = jobs.length - failures.length;
  process.stderr.write(`${written} of ${jobs.length} file${jobs.length === 1 ? '' : 's'} read; results in ${outDir}\n`);
  return failures.length ? 1 : 0;
}
