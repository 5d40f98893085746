import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The API suite runs twice: once on PGlite, once on PostgreSQL.
export default defineConfig({
  // Workspace packages are tested from their TypeScript sources (the `source` export condition), not
  // from their last build; the other conditions are Vitest's defaults.
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['test/api/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/setup/pglite-template.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          // test/postgres: behaviour only PostgreSQL has (several instances on one database).
          include: ['test/api/**/*.test.ts', 'test/postgres/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['test/setup/postgres-template.ts'],
        },
      },
      {
        // Sign-in in headless Chromium (Debian's /usr/bin/chromium).
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['test/setup/pglite-template.ts', 'test/setup/web-build.ts'],
        },
      },
    ],
  },
});
