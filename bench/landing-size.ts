// The JavaScript a first visit to / downloads, gzipped, against its 90 KB budget (decision 007), and
// what /chat loads before its first message against decision 044's budgets. Figures
// to watch, not tests: it prints and never fails. Builds first when the build is stale.
import path from 'node:path'
// @ts-expect-error: plain ESM script without types
import { buildDir, buildIsCurrent } from '../scripts/build-stamp.mjs'
import {
  CHAT_FILES_BUDGET,
  CHAT_JS_BUDGET,
  chatBundleSize,
  ensureProductionBuild,
  formatLandingBundle,
  kb,
  landingBundleSize,
} from '../scripts/bundle-size.mjs'

export async function run(): Promise<void> {
  ensureProductionBuild(buildDir, buildIsCurrent)
  const clientDir = path.join(buildDir, 'client')
  console.info(formatLandingBundle(landingBundleSize(clientDir)))
  const chat = chatBundleSize(clientDir)
  console.info(
    `JS loaded by /chat before its first message (gzip): ${kb(chat.totalJsGzip)} (goal: at most ${kb(CHAT_JS_BUDGET)}) in ${chat.js.length} files (goal: at most ${CHAT_FILES_BUDGET})`,
  )
}
