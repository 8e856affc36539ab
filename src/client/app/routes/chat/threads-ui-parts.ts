// What threads-ui.ts loads on demand.
export { DesktopLayout } from '#client/features/chat/components/desktop-layout.tsx'
export { ThreadsPanel } from './threads-panel.tsx'
