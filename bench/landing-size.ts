// The JavaScript a first visit to / downloads, gzipped, against the 90 KB budget of issue #8.
// A figure to watch, not a test: it prints and never fails. Builds first when the build is stale.
import path from 'node:path'
// @ts-expect-error: plain ESM script without types
import { buildDir, buildIsCurrent } from '../scripts/build-stamp.mjs'
import { ensureProductionBuild, formatLandingBundle, landingBundleSize } from '../scripts/bundle-size.mjs'

export async function run(): Promise<void> {
  ensureProductionBuild(buildDir, buildIsCurrent)
  console.info(formatLandingBundle(landingBundleSize(path.join(buildDir, 'client'))))
}
