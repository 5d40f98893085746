import { defineConfig } from 'vitest/config';

// Suites that start a Minecraft server, bots and child processes share 2 cores with other work: the
// end-to-end files run one at a time, after the rest, so their timing checks do not race each other.
const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
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
