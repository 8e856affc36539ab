import Droplet from 'lucide-react/icons/droplet'
import Leaf from 'lucide-react/icons/leaf'
import TreePine from 'lucide-react/icons/tree-pine'
import Zap from 'lucide-react/icons/zap'
import { type ReactNode, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useNextModel } from '#client/features/account/api/get-next-model.ts'
import {
  chatEngineLabel,
  displayedCurrentModel,
  type ModeFlags,
  nextReset,
  readModeFlags,
  resetIsDue,
  usageTotal,
} from '#client/features/account/consumption.ts'
import { useCo2History } from '#client/features/impact/api/get-co2-history.ts'
import { useCo2Range } from '#client/features/impact/api/get-co2-range.ts'
import { useCo2Saved } from '#client/features/impact/api/get-co2-saved.ts'
import { Co2HistoryChart } from '#client/features/impact/components/co2-history-chart.tsx'
import { formatEnergy, formatGrams, formatRangeWith, formatWater } from '#client/lib/impact-format.ts'
import type { ChatModel } from '#contract/config.ts'
import type { User } from '#contract/user.ts'

const count = (n: number) => n.toLocaleString('en-US')
const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })

/** Spec section 2 'Consumption tab': environmental impact, its daily history, AI usage statistics. */
export function ConsumptionTab({ user }: { user: User }) {
  // The chat's mode flags as it left them (spec 3 'Local storage'); read once per visit.
  const [flags] = useState(() => readModeFlags())
  const [now] = useState(() => new Date())
  return (
    <div className="grid gap-6">
      <ImpactCard user={user} />
      <Card>
        <CardHeader>
          <CardTitle>Your footprint over the last 30 days</CardTitle>
          <CardDescription>
            CO2 saved compared with a standard model and emitted by the model that answered, or the energy and
            water your replies used
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Co2HistoryChart days={HISTORY_DAYS} trees={user.treesPlanted} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>AI Usage Statistics</CardTitle>
          <CardDescription>Characters sent and received since the last reset</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <Stat label="Displayed current model" testId="current-model">
              <TierModel user={user} flags={flags} now={now} />
            </Stat>
            <Stat label="Answering in this mode" testId="answering-model">
              <AnsweringModel user={user} flags={flags} now={now} />
            </Stat>
            <Stat label="Chat engine" testId="chat-engine">
              <ChatEngine flags={flags} />
            </Stat>
            <Stat label="Input characters" testId="usage-input">
              {count(user.aiInputChars)}
            </Stat>
            <Stat label="Output characters" testId="usage-output">
              {count(user.aiOutputChars)}
            </Stat>
            <Stat label="Total usage" testId="usage-total">
              {count(usageTotal(user))} characters
            </Stat>
            <Stat label="Next Reset" testId="next-reset">
              {resetIsDue(user, now) ? 'With your next message' : longDate(nextReset(user))}
            </Stat>
          </dl>
        </CardContent>
      </Card>
    </div>
  )
}

const modeOf = (flags: ModeFlags): ChatModel =>
  flags.useOpenAI ? 'chatgpt' : flags.isEcoMode ? 'loris' : 'gemini'

/**
 * Spec section 4's 'Displayed current model': the usage tier's model (GPT-3.5 Turbo with the
 * OpenAI option), by the server's own tier resolution when it serves that mode, else by the
 * spec's rule. Eco mode answers with another model: AnsweringModel names it (decision 052).
 */
function TierModel({ user, flags, now }: { user: User; flags: ModeFlags; now: Date }) {
  const mode: ChatModel = flags.useOpenAI ? 'chatgpt' : 'gemini'
  const next = useNextModel(mode)
  const local = displayedCurrentModel(user, flags, now)
  const served = next.data
  if (!served?.available || served.chatModel !== mode || served.limitExceeded || !served.modelName)
    return local
  return served.modelName
}

/**
 * The model that really answers the next message in the chosen mode: the server's own
 * resolution (its providers, the user's tier). The spec's limit wording stays, and so does the
 * local answer until it loads.
 */
function AnsweringModel({ user, flags, now }: { user: User; flags: ModeFlags; now: Date }) {
  const next = useNextModel(modeOf(flags))
  const local = displayedCurrentModel(user, flags, now)
  if (!next.data?.available || next.data.limitExceeded || !next.data.modelName) return local
  return next.data.modelName
}

/** The mode the server answers in: the chosen one, or the one it falls back to. */
function ChatEngine({ flags }: { flags: ModeFlags }) {
  const next = useNextModel(modeOf(flags))
  const served = next.data?.available ? next.data.chatModel : modeOf(flags)
  return chatEngineLabel({ isEcoMode: served === 'loris', useOpenAI: served === 'chatgpt' })
}

function ImpactCard({ user }: { user: User }) {
  const saved = useCo2Saved(true)
  const range = useCo2Range(true)
  const history = useCo2History(HISTORY_DAYS)
  const totals = history.data?.totals
  const grams = saved.data ?? user.co2Saved
  return (
    <Card>
      <CardHeader>
        <CardTitle>Environmental Impact</CardTitle>
        <CardDescription>Every reply is compared with the same answer from a standard model</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <div className="flex items-start gap-3">
          <Leaf className="mt-1 size-5 text-primary" aria-hidden="true" />
          <div>
            <p className="text-sm text-muted-foreground">CO2 saved</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid="co2-saved-total">
              {formatGrams(grams)}
            </p>
            {range.data && range.data.max > 0 ? (
              <p className="text-xs text-muted-foreground" data-testid="co2-saved-range">
                Estimated range {formatGrams(range.data.min)} to {formatGrams(range.data.max)}
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex items-start gap-3">
          <TreePine className="mt-1 size-5 text-primary" aria-hidden="true" />
          <div>
            <p className="text-sm text-muted-foreground">Trees planted</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid="trees-total">
              {user.treesPlanted}
            </p>
            <p className="text-xs text-muted-foreground">One for every second message you send</p>
          </div>
        </div>
        <UseStat
          icon={<Zap className="mt-1 size-5 text-yellow-400" aria-hidden="true" />}
          label={`Energy used, last ${HISTORY_DAYS} days`}
          testId="energy-total"
          total={totals?.energyWh}
          format={formatEnergy}
        />
        <UseStat
          icon={<Droplet className="mt-1 size-5 text-sky-400" aria-hidden="true" />}
          label={`Water used, last ${HISTORY_DAYS} days`}
          testId="water-total"
          total={totals?.waterL}
          format={formatWater}
        />
      </CardContent>
    </Card>
  )
}

const HISTORY_DAYS = 30

/** A 30-day total with its low-to-high range (replies stored before energy and water add nothing). */
function UseStat({
  icon,
  label,
  testId,
  total,
  format,
}: {
  icon: ReactNode
  label: string
  testId: string
  total: { min: number; max: number; mid: number } | undefined
  format: (x: number) => string
}) {
  return (
    <div className="flex items-start gap-3">
      {icon}
      <div>
        <p className="text-sm text-muted-foreground">{label}</p>
        <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
          {total ? format(total.mid) : '…'}
        </p>
        {total && total.max > 0 ? (
          <p className="text-xs text-muted-foreground" data-testid={`${testId}-range`}>
            Estimated range {formatRangeWith(total, format)}
          </p>
        ) : null}
      </div>
    </div>
  )
}

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  )
}
