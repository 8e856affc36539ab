import ArrowLeft from 'lucide-react/icons/arrow-left'
import { Link, useLocation, useSearch } from 'wouter'
import { useUser } from '#client/app/api/get-user.ts'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx'
import { AuditTab } from '#client/features/admin/components/audit-tab.tsx'
import { LimitsTab } from '#client/features/admin/components/limits-tab.tsx'
import { NotAnOperator, SignInFirst } from '#client/features/admin/components/operators-only.tsx'
import { PeopleTab } from '#client/features/admin/components/people-tab.tsx'
import { UsageTab } from '#client/features/admin/components/usage-tab.tsx'
import { WaitlistTab } from '#client/features/admin/components/waitlist-tab.tsx'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'

const TABS = [
  { id: 'people', label: 'People' },
  { id: 'waitlist', label: 'Waitlist' },
  { id: 'usage', label: 'Usage and impact' },
  { id: 'limits', label: 'Plan limits' },
  { id: 'audit', label: 'Audit log' },
] as const
type Tab = (typeof TABS)[number]['id']

/** The operator's console (decision 063): its own chunk, opened only by operators. */
export default function AdminPage() {
  const { user, isLoading } = useUser()
  if (isLoading) return <PageSpinner />
  if (!user) return <SignInFirst signIn={<SignInDialog returnTo="/admin" />} />
  if (!user.operator) return <NotAnOperator />
  return <Console selfId={user.id} />
}

function Console({ selfId }: { selfId: string }) {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const requested = new URLSearchParams(search).get('tab')
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : 'people'
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link href="/chat" className="inline-flex items-center gap-2 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Chat
      </Link>
      <h1 className="mt-6 text-2xl font-bold">Operator's console</h1>
      <Tabs
        value={tab}
        onValueChange={(v) => navigate(`${location}?tab=${v}`, { replace: true })}
        className="mt-6 grid gap-6"
      >
        <TabsList className="h-auto w-full flex-wrap justify-start">
          {TABS.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="people" className="mt-0 min-w-0">
          <PeopleTab selfId={selfId} />
        </TabsContent>
        <TabsContent value="waitlist" className="mt-0 min-w-0">
          <WaitlistTab />
        </TabsContent>
        <TabsContent value="usage" className="mt-0 min-w-0">
          <UsageTab />
        </TabsContent>
        <TabsContent value="limits" className="mt-0 min-w-0">
          <LimitsTab />
        </TabsContent>
        <TabsContent value="audit" className="mt-0 min-w-0">
          <AuditTab />
        </TabsContent>
      </Tabs>
    </main>
  )
}
