// The unit test files that run after the others, one at a time, each with its own modules (the
// `unit-alone` project, vitest.config.ts; docs/performance.md, "Where the time goes"):
// - those that measure time on the main thread (a stall guard around hostile input, a per-token
//   delay) say so with the marker below: the rest of the unit step runs two files at once on two
//   cores, and a thread the OS did not run counts as a stall;
// - those that replace a module or a global (found by the pattern below).
import { testFilesWhose } from './test-files.mjs'

export const RUNS_ALONE_MARKER = '@runs-alone'
/**
 * The `unit` project shares one module registry among the files a worker runs (vitest's
 * `isolate: false`: each file evaluated the app's modules afresh, 105 s of the step's CPU). A file
 * that replaces a module or a global needs a registry of its own.
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/
// The unit project's folders (vitest.config.ts's unitFiles).
const ROOTS = ['src', 'tests/stand-ins', 'scripts', 'bench', 'build']

/** Relative paths (from the project root) of the test files carrying the marker or replacing modules. */
export function filesThatRunAlone(root = process.cwd()) {
  return testFilesWhose(
    ROOTS,
    (text) => text.includes(RUNS_ALONE_MARKER) || REPLACES_MODULES.test(text),
    root,
  )
}
