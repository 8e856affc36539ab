// Types of runs-alone.mjs for vitest.config.ts.
export const RUNS_ALONE_MARKER: string
export function filesThatRunAlone(root?: string): string[]
