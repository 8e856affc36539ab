import ArrowLeft from 'lucide-react/icons/arrow-left'
import { Link } from 'wouter'

/** The way back from a page of settings to the conversation. */
export function BackToChat() {
  return (
    <Link href="/chat" className="inline-flex items-center gap-2 text-sm text-primary hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Chat
    </Link>
  )
}
