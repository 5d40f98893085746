import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { NEWEST_SHARED_VERSION } from './test/helpers/versions.js';

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
      {
        // The end-to-end files once more on the newest version flying-squid and mineflayer share
        // (test/helpers/versions.ts says which and why). The restart test plays no game and runs once;
        // npc.test.ts runs once because on this version the test server's sneak fix-up misses the NPC's
        // crouch (every other test in it passes there; see the README).
        extends: true,
        test: {
          ...shared,
          name: `e2e-${NEWEST_SHARED_VERSION}`,
          include: ['test/e2e/**/*.test.ts'],
          exclude: ['test/e2e/restart-resume.test.ts', 'test/e2e/npc.test.ts'],
          env: { NPC_TEST_MC_VERSION: NEWEST_SHARED_VERSION },
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
