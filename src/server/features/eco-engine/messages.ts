// What people read when the eco model cannot answer: plain words and what the site's
// administrator can do, never an environment variable (the admin log names those).
import type { EcoRefusal } from './engine.ts'

const ADMIN_FILE = 'The site administrator can place the model file on the server or choose another one.'

export function ecoFailureMessage(failure: EcoRefusal): string {
  switch (failure) {
    case 'too_long':
      return 'Your message is too long for the Loris eco model, which reads only a few pages at a time. Please shorten it (or attach a shorter document), or choose another mode.'
    case 'offline':
      return `The Loris eco model could not be downloaded: this server cannot reach the internet. ${ADMIN_FILE}`
    case 'checksum':
      return `The Loris eco model's download did not match the expected file, so it was not used. ${ADMIN_FILE}`
    case 'http':
      return `The Loris eco model could not be downloaded from its source. ${ADMIN_FILE}`
    case 'disk':
      return 'The Loris eco model could not be saved on this server (no room or no permission). The site administrator can free space or place the model file on the server.'
    default:
      return 'The Loris eco model could not be started on this server. The site administrator can check the model file.'
  }
}

export const NOT_ON_THIS_SERVER = (label: string) => `${label} is not available on this server`
