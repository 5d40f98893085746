import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Suites that start a Minecraft server, bots and child processes share 2 cores with other work: the
// end-to-end files run one at a time, after the rest, so their timing checks do not race each other.
const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  // Workspace packages are tested from their TypeScript sources (the `source` export condition), not
  // from their last build; the other conditions are Vitest's defaults.
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          fileParallelism: true,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
