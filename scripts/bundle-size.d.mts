// Types for bundle-size.mjs, so TypeScript callers (bench/landing-size.ts) stay checked.
export interface SizedFile {
  file: string
  raw: number
  gzip: number
}
export interface LandingBundleReport {
  js: SizedFile[]
  css: SizedFile[]
  totalJsGzip: number
  totalJsRaw: number
  totalCssGzip: number
}
export const LANDING_JS_BUDGET: number
export function landingBundleSize(clientDir?: string): LandingBundleReport
export function chatBundleSize(clientDir?: string): LandingBundleReport
export function kb(bytes: number): string
export function formatLandingBundle(report: LandingBundleReport): string
export function isDevelopmentBuild(clientDir: string): boolean
export function ensureProductionBuild(buildDir: string, isCurrent: () => boolean): void
