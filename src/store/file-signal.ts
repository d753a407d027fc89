// SQLite has no NOTIFY: processes sharing one database file (an API and workers started apart,
// `folio serve --no-workers` and `folio worker`) signal each other through a small file beside
// it. Writing the file is the signal; every process watching it (fs.watch: inotify on Linux,
// FSEvents or kqueue elsewhere) hears it at once, instead of at its next poll. Where the file
// system cannot be watched (some network mounts) nothing is heard and workers fall back to
// polling, so a lost signal only delays work, as with PostgreSQL.
import { watch, type FSWatcher } from 'node:fs';
import { writeFile } from 'node:fs/promises';

export class FileSignal {
  private watcher: FSWatcher | null = null;
  private closed = false;
  private sent = 0;

  constructor(
    readonly file: string,
    private readonly heard: () => void,
  ) {}

  /** Starts watching the file, creating it if need be; a file system that cannot be watched is left to polling. */
  async listen(): Promise<void> {
    if (this.watcher || this.closed) return;
    try {
      await writeFile(this.file, '', { flag: 'a' });
      const watcher = watch(this.file, { persistent: false }, () => this.heard());
      // A watch that breaks (the file removed with the data directory) leaves the poll.
      watcher.on('error', () => {
        watcher.close();
        if (this.watcher === watcher) this.watcher = null;
      });
      this.watcher = watcher;
    } catch {
      // Polling still finds the work.
    }
  }

  /** Signals every process watching the file, this one included. */
  async send(): Promise<void> {
    // The content changes on every write, so no file system folds two signals into none.
    await writeFile(this.file, String(++this.sent % 10)).catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = null;
  }
}
