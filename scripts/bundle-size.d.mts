// Types for bundle-size.mjs, so TypeScript callers (bench/landing-size.ts) stay checked.
export interface SizedFile {
  file: string
  raw: number
  gzip: number
}
export interface SizedChunk extends SizedFile {
  /** The sources the chunk was built from (its source map's), empty without a map. */
  sources: string[]
}
export interface LandingBundleReport {
  js: SizedChunk[]
  css: SizedFile[]
  totalJsGzip: number
  totalJsRaw: number
  totalCssGzip: number
}
/** The built client (LORIS_BUILD_DIR's). */
export const clientBuildDir: string
export const LANDING_JS_BUDGET: number
export const CHAT_JS_BUDGET: number
export const CHAT_FILES_BUDGET: number
export const CHAT_DEFERRED_PACKAGES: RegExp
export function deferredPackagesIn(report: LandingBundleReport): string[]
export function landingBundleSize(clientDir?: string): LandingBundleReport
export function chatBundleSize(clientDir?: string): LandingBundleReport
export function kb(bytes: number): string
export function formatLandingBundle(report: LandingBundleReport): string
export function isDevelopmentBuild(clientDir: string): boolean
export function ensureProductionBuild(buildDir: string, isCurrent: () => boolean): void
