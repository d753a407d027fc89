// `folio serve | worker | admin ... | parse ...` (docs/decisions.md#running, docs/decisions.md#administration; issue 11). Each command's
// module is loaded when it runs, so the client command does not start the document readers.
import { CLIENT_IMPORT, PACKAGE_NAME } from '../domain/package-name.js';

const USAGE = `Usage:
  folio serve [--port N] [--host H] [--no-workers]   API and workers (API only with --no-workers)
  folio worker                                       workers only
  folio admin <plan|workspace|key|credits> ...       administration (JSON out)
  folio parse FILE... [--markdown] [--chunks] [--pages RANGES] [--extract ...] [--ask Q] [--out DIR]
                                                     send files to a running Folio (FOLIO_URL, FOLIO_API_KEY)
The folio command of the npm package ${PACKAGE_NAME}; its TypeScript client is imported from '${CLIENT_IMPORT}'.`;

export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error) {
    // A start-up failure (port in use, database unreachable, bad configuration) is one clear
    // line on stderr and a non-zero exit, not a stack trace.
    const reason = error as NodeJS.ErrnoException;
    const message = reason.code === 'EADDRINUSE' ? `the address is already in use (${reason.message})` : reason.message;
    process.stderr.write(`${JSON.stringify({ error: { type: 'startup_failed', message } })}\n`);
    process.exit(1);
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return (await import('./serve.js')).runServe(rest, { api: true });
    case 'worker':
      return (await import('./serve.js')).runServe(rest, { api: false });
    case 'admin':
      process.exitCode = await (await import('./admin.js')).runAdmin(rest);
      return;
    case 'parse':
      process.exitCode = await (await import('./parse.js')).runParse(rest);
      return;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      console.log(USAGE);
      return;
    default:
      console.error(`Unknown command "${command}".\n${USAGE}`);
      process.exitCode = 2;
  }
}
