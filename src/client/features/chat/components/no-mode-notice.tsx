// With no chat mode at all on this server, the chat says so before anyone types.
import { NO_MODE_REASON } from '../lib/chat-mode.ts'

export function NoModeNotice({ heading: Heading = 'h2' }: { heading?: 'h1' | 'h2' }) {
  return (
    <>
      <Heading className="text-2xl font-semibold">{NO_MODE_REASON}</Heading>
      <p className="mt-2 max-w-md text-muted-foreground">
        Messages cannot be sent until the site administrator sets up an AI model. Please come back later.
      </p>
    </>
  )
}
