import { defineConfig } from 'vitest/config';

// Unit tests run once; the black-box suite runs twice, against SQLite and against PostgreSQL
// (FOLIO_TEST_DATABASE_URL, default the local `test` database), as the same files, one store
// after the other.
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
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      { test: { ...e2e, name: 'sqlite', env: { FOLIO_TEST_STORE: 'sqlite' }, sequence: { groupOrder: 1 } } },
      { test: { ...e2e, name: 'postgres', env: { FOLIO_TEST_STORE: 'postgres' }, sequence: { groupOrder: 2 } } },
    ],
  },
});
