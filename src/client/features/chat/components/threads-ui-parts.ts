// What threads-ui.ts loads on demand.
export { DesktopLayout } from './desktop-layout.tsx'
export { ThreadsPanel } from './threads-panel.tsx'
