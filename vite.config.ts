import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { routeChunks } from './build/route-chunks.ts'

export default defineConfig({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [
    react(),
    tailwindcss(),
    // /chat's first load in a few chunks rather than thirty (build/route-chunks.ts).
    routeChunks({
      leftAlone: ['features/landing/landing-page.tsx'],
      groups: [
        { name: 'toasts', sources: ['components/ui/toaster.tsx'] },
        { name: 'app', sources: ['app/page-shell.tsx'] },
        { name: 'chat', sources: ['app/routes/chat/chat-page.tsx'], shared: 'app' },
      ],
    }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // The server reads it to name /chat's chunks in the HTML (src/server/lib/route-preloads.ts).
    manifest: true,
    // The landing route must stay small; chat code is loaded on chat routes only.
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    // Only Google's flow lives under /auth on the server; /auth itself is a client page.
    proxy: { '/api': 'http://127.0.0.1:5000', '/auth/google': 'http://127.0.0.1:5000' },
  },
})
