import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppProviders } from './app/providers.tsx'
import { reloadForNewCode } from './app/reload-for-new-code.ts'
import { AppRouter } from './app/router.tsx'
import './styles.css'

// Our CSP forbids eval, so zod's probe for it (`Function('')`, made when the first object schema
// is built) would only log a CSP violation. This is `z.config({ jitless: true })` written to the
// global zod reads its config from, so zod itself stays out of the landing page's bundle.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true }

// Code Vite loads ahead of a page (its chunks' imports, its CSS) failing is the same stale tab
// after a deploy, also where no error boundary sees it (a chunk fetched before it is needed).
window.addEventListener('vite:preloadError', () => reloadForNewCode())

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
)
