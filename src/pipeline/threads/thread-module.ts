// How a pool of threads names the module its threads run: Piscina is given thread-entry.cjs, which
// loads the module with import() (why, in thread-entry.cts), so a thread may be stopped at any time,
// however far it has got with loading, without taking the process down.

/** Piscina's `filename` and `workerData` for threads running the ES module at `threadModule`. */
export function threadModuleOptions(threadModule: URL): { filename: string; workerData: { threadModule: string } } {
  return { filename: new URL('./thread-entry.cjs', import.meta.url).href, workerData: { threadModule: threadModule.href } };
}
