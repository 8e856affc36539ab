import AtSign from 'lucide-react/icons/at-sign'
import Mail from 'lucide-react/icons/mail'
import { ExternalLink } from './external-link.tsx'
import { Section } from './section.tsx'

const card =
  'flex items-center gap-4 rounded-xl border bg-card p-5 font-medium text-zinc-100 transition-colors hover:border-primary/50 hover:bg-accent'

/** Spec section 2: contact, with a social handle and an e-mail link. */
export function Contact() {
  return (
    <Section
      id="contact"
      eyebrow="Contact"
      title="Talk to us"
      intro="Questions, partnership ideas, or doubts about our numbers? We read everything and answer within two working days."
    >
      <ul className="mt-10 grid gap-4 sm:grid-cols-2">
        <li>
          <a href="mailto:hello@loris.eco" className={card}>
            <Mail className="size-6 shrink-0 text-emerald-400" aria-hidden="true" />
            <span className="min-w-0">
              <span className="block text-sm text-zinc-400">E-mail</span>
              <span className="block break-all">hello@loris.eco</span>
            </span>
          </a>
        </li>
        <li>
          <ExternalLink href="https://x.com/loris_eco" className={card}>
            <AtSign className="size-6 shrink-0 text-emerald-400" aria-hidden="true" />
            <span className="min-w-0 flex-1">
              <span className="block text-sm text-zinc-400">Follow us on X</span>
              <span className="block">@loris_eco</span>
            </span>
          </ExternalLink>
        </li>
      </ul>
    </Section>
  )
}
