import { defineConfig } from 'vitest/config';

// Unit tests run once; the black-box suite runs twice, against SQLite and against PostgreSQL
// (FOLIO_TEST_DATABASE_URL, default the local `test` database), one store after the other. What a
// file tests that the store cannot change (what is read from a file, what a client or a browser
// does with the API's answers, how malformed requests are answered) runs on SQLite only: the
// PostgreSQL pass is for what the store keeps, shares and counts.
const storeIndependent = [
  'formats',
  'layout',
  'office',
  'office-large',
  'scans',
  'previews',
  'model-providers',
  'generated-bench',
  'playground',
  'python-client',
  'client',
  'hostile-input',
].map((name) => `test/e2e/${name}.test.ts`);

const e2e = {
  include: ['test/e2e/**/*.test.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  fileParallelism: true,
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    projects: [
      // Two files at once on two cores: Vitest's default keeps a core free, and the unit files
      // (readers, OCR) are single-threaded and CPU-bound: 276 s -> 139 s on this machine.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { test: { ...e2e, name: 'sqlite', env: { FOLIO_TEST_STORE: 'sqlite' }, sequence: { groupOrder: 1 } } },
      { test: { ...e2e, name: 'postgres', exclude: storeIndependent, env: { FOLIO_TEST_STORE: 'postgres' }, sequence: { groupOrder: 2 } } },
    ],
  },
});
