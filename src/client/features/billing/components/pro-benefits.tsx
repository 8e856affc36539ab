import Ban from 'lucide-react/icons/ban'
import Gauge from 'lucide-react/icons/gauge'
import Leaf from 'lucide-react/icons/leaf'
import Sparkles from 'lucide-react/icons/sparkles'

// Spec sections 1 and 9: no ads, far higher limits, the best models, 10 percent to the planet.
const BENEFITS = [
  { icon: Ban, title: 'No ads', text: 'A calm, ad-free space to think.' },
  {
    icon: Gauge,
    title: 'Far higher usage limits',
    text: '1,000,000 characters every 30 days instead of 100,000.',
  },
  {
    icon: Sparkles,
    title: 'The best models',
    text: 'Gemini 2.5 Pro for your first 500,000 characters (free: 20,000).',
  },
  {
    icon: Leaf,
    title: '10% to environmental causes',
    text: '10 percent of your subscription goes to reforestation and climate projects.',
  },
] as const

export function ProBenefits() {
  return (
    <ul className="grid gap-3" aria-label="Loris Pro benefits">
      {BENEFITS.map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex gap-3">
          <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <p className="text-sm font-medium">{title}</p>
            <p className="text-sm text-muted-foreground">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  )
}
