import { useEffect, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import { INSTRUCTION_MAX_CHARS, type Instructions } from '#contract/assistant.ts'
import { useInstructions, useSaveInstructions } from '../api/instructions.ts'

/** Custom instructions: sent to every mode's model while on (their length counts as input). */
export function InstructionsCard() {
  const { data } = useInstructions()
  const save = useSaveInstructions()
  const [draft, setDraft] = useState<Instructions>({ aboutMe: '', howToRespond: '', enabled: true })
  useEffect(() => {
    if (data) setDraft(data)
  }, [data])
  const aboutId = useId()
  const howId = useId()
  const field = (id: string, label: string, key: 'aboutMe' | 'howToRespond') => (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        value={draft[key]}
        maxLength={INSTRUCTION_MAX_CHARS}
        rows={4}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
      <p className="text-right text-xs text-muted-foreground">
        {draft[key].length.toLocaleString('en-US')} / {INSTRUCTION_MAX_CHARS.toLocaleString('en-US')}
      </p>
    </div>
  )
  return (
    <Card data-testid="custom-instructions">
      <CardHeader>
        <CardTitle>Custom instructions</CardTitle>
        <CardDescription>
          Sent to Loris with every message, in every mode. Their length counts in your usage and footprint.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            save.mutate(draft)
          }}
        >
          {field(aboutId, 'What should Loris know about you?', 'aboutMe')}
          {field(howId, 'How should Loris answer?', 'howToRespond')}
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
            />
            Use my instructions
          </label>
          <div>
            <Button type="submit" disabled={save.isPending || !data}>
              Save instructions
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
