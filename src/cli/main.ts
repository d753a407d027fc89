// `folio serve | worker | admin ...` (DECISIONS D1, D2).
import { runAdmin } from './admin.js';
import { runServe } from './serve.js';

const USAGE = `Usage:
  folio serve [--port N] [--host H] [--no-workers]   API and workers (API only with --no-workers)
  folio worker                                       workers only
  folio admin <plan|workspace|key|credits> ...       administration (JSON out)`;

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest, { api: true });
    case 'worker':
      return runServe(rest, { api: false });
    case 'admin':
      process.exitCode = await runAdmin(rest);
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
