import { useUser } from '#client/app/api/get-user.ts'
import { BackToChat } from '#client/components/back-to-chat.tsx'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx'
import { AuditTab } from '#client/features/admin/components/audit-tab.tsx'
import { LimitsTab } from '#client/features/admin/components/limits-tab.tsx'
import { NotAnOperator, SignInFirst } from '#client/features/admin/components/operators-only.tsx'
import { PeopleTab } from '#client/features/admin/components/people-tab.tsx'
import { UsageTab } from '#client/features/admin/components/usage-tab.tsx'
import { WaitlistTab } from '#client/features/admin/components/waitlist-tab.tsx'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'
import { useTabParam } from '#client/hooks/use-tab-param.ts'

const TABS = [
  { id: 'people', label: 'People', panel: (selfId: string) => <PeopleTab selfId={selfId} /> },
  { id: 'waitlist', label: 'Waitlist', panel: () => <WaitlistTab /> },
  { id: 'usage', label: 'Usage and impact', panel: () => <UsageTab /> },
  { id: 'limits', label: 'Plan limits', panel: () => <LimitsTab /> },
  { id: 'audit', label: 'Audit log', panel: () => <AuditTab /> },
] as const

/** The operator's console (decision 063): its own chunk, opened only by operators. */
export default function AdminPage() {
  const { user, isLoading } = useUser()
  if (isLoading) return <PageSpinner />
  if (!user) return <SignInFirst signIn={<SignInDialog returnTo="/admin" />} />
  if (!user.operator) return <NotAnOperator />
  return <Console selfId={user.id} />
}

function Console({ selfId }: { selfId: string }) {
  const [tab, openTab] = useTabParam(TABS.map((t) => t.id))
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <BackToChat />
      <h1 className="mt-6 text-2xl font-bold">Operator's console</h1>
      <Tabs value={tab} onValueChange={openTab} className="mt-6 grid gap-6">
        <TabsList className="h-auto w-full flex-wrap justify-start">
          {TABS.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.id} value={t.id} className="mt-0 min-w-0">
            {t.panel(selfId)}
          </TabsContent>
        ))}
      </Tabs>
    </main>
  )
}
