// The module Piscina loads in each thread: a CommonJS file that loads the thread's real module (an
// ES module, named in the thread's workerData) with import(). Piscina tries require() first, and
// require() of an ES module loads it synchronously; a thread stopped during that load takes the
// whole process down (Node 20 and 22: "v8::Module::IsGraphAsync must be used on an instantiated
// module", SIGABRT), which happened whenever a task aborted, or a pool closed, on a thread still
// starting. A stop during import() only ends the thread.
import { workerData } from 'node:worker_threads';

type TaskRunner = (task: unknown) => Promise<unknown>;

// workerData.threadModule: the file: URL of the thread's ES module, whose default export runs a task.
const loaded: Promise<{ default: TaskRunner }> = import((workerData as { threadModule: string }).threadModule);
// Loading starts with the thread; a failure is reported by the first task that awaits it.
loaded.catch(() => undefined);

export = async function runTask(task: unknown): Promise<unknown> {
  return (await loaded).default(task);
};
