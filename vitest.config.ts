import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { filesThatRunAlone } from './scripts/runs-alone.mjs'

// Vitest's default is the cores less one: one file at a time on a 2-core machine, which left one
// core idle through the unit and PostgreSQL steps (586 and 225 s; 285 and 126 s with two).
const unitWorkers = Math.max(2, availableParallelism() - 1)
const unitFiles = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'tests/stand-ins/**/*.test.ts',
  'scripts/**/*.test.ts',
  'bench/**/*.test.ts',
  'build/**/*.test.ts',
]
// Files that measure the main thread's time, or replace modules (scripts/runs-alone.mjs): after
// the others, one at a time, each with its own module registry.
const alone = filesThatRunAlone(import.meta.dirname)
const unitOptions = { environment: 'node', testTimeout: 20_000, hookTimeout: 30_000 } as const

// Three projects: unit/API tests beside the code (`unit`, then `unit-alone`), and browser tests
// that drive the built app. Groups run one after another, in `groupOrder`.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          exclude: ['**/node_modules/**', ...alone],
          maxWorkers: unitWorkers,
          // The files a worker runs share its modules: the app's were evaluated again for every file
          // (unit step 337 s, of which 105 s imports; 180 s shared). Each file still opens its own
          // app and database; files that replace modules are in unit-alone.
          isolate: false,
          sequence: { groupOrder: 0 },
          ...unitOptions,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-alone',
          include: alone.length > 0 ? alone : ['no-file-runs-alone'],
          maxWorkers: 1,
          isolate: true,
          sequence: { groupOrder: 1 },
          ...unitOptions,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          sequence: { groupOrder: 2 },
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
