// The thread list (virtualized, with its menus and the message search) and the desktop's
// resizable panels: loaded apart from the chat, which a phone shows without them.
import { moduleLoader } from '#client/lib/module-loader.ts'

export const threadsUi = moduleLoader(() => import('./threads-ui-parts.ts'))
