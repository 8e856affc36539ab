import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Vitest's default is the cores less one: one file at a time on a 2-core machine, which left one
// core idle through the unit and PostgreSQL steps (586 and 225 s; 285 and 126 s with two).
const unitWorkers = Math.max(2, availableParallelism() - 1)

// Two projects: fast unit/API tests beside the code, and browser tests that drive the built app.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'src/**/*.test.tsx',
            'tests/stand-ins/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
          maxWorkers: unitWorkers,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // Above app-server.ts's own start-up limit (150 s), so its error (with the server's
          // output) is the one reported, and its cleanup runs.
          hookTimeout: 180_000,
          // One Chromium per file; two cores means two files at a time at most.
          maxWorkers: 2,
          // Two Chromiums, two servers and the stand-ins share two cores: a test that times out
          // once is run again before it counts as failed (each retry is reported).
          retry: 1,
          fileParallelism: true,
        },
      },
    ],
  },
})
