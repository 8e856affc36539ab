import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import type { User } from '#contract/user.ts'

export function ConsumptionTab({ user }: { user: User }) {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Environmental Impact</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-2 gap-4">
          <div>
            <p className="text-sm text-muted-foreground">CO2 saved</p>
            <p className="text-2xl font-semibold" data-testid="co2-saved-total">
              {user.co2Saved.toFixed(2)} g
            </p>
          </div>
          <div>
            <p className="text-sm text-muted-foreground">Trees planted</p>
            <p className="text-2xl font-semibold" data-testid="trees-total">
              {user.treesPlanted}
            </p>
          </div>
        </CardContent>
      </Card>
    </div>
  )
}
