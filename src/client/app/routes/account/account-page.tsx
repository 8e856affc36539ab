import { useUser } from '#client/app/api/get-user.ts'
import { BackToChat } from '#client/components/back-to-chat.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx'
import { useSideTabs } from '#client/features/account/hooks/use-side-tabs.ts'
import { VerifyEmailBanner } from '#client/features/auth/components/verify-email-banner.tsx'
import { useTabParam } from '#client/hooks/use-tab-param.ts'
import { isProNow } from '#client/lib/pro-now.ts'
import { AccountTab } from './account-tab.tsx'
import { ActionsTab } from './actions-tab.tsx'
import { ConsumptionTab } from './consumption-tab.tsx'

const TABS = ['account', 'consumption', 'actions'] as const
type Tab = (typeof TABS)[number]
/** Addresses that named a tab since folded into another (Shared links is a section of Actions). */
const MOVED: Record<string, Tab> = { shared: 'actions' }

/** Settings (spec section 2): three side tabs; the URL remembers the open one (?tab=). */
export default function AccountPage() {
  const { user } = useUser()
  const [tab, openTab] = useTabParam(TABS, MOVED)
  const side = useSideTabs()
  if (!user) return null
  return (
    <>
      {/* After an e-mail change the new address waits for its link: the reminder shows here too. */}
      <VerifyEmailBanner />
      <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <BackToChat />
        <h1 className="mt-6 text-2xl font-bold">Settings</h1>
        <Tabs
          value={tab}
          onValueChange={openTab}
          orientation={side ? 'vertical' : 'horizontal'}
          className="mt-6 flex flex-col gap-6 md:flex-row"
        >
          <TabsList className="h-auto w-full flex-row flex-wrap justify-start md:w-48 md:flex-col md:flex-nowrap md:items-stretch">
            <TabsTrigger value="account" className="justify-start">
              Account
            </TabsTrigger>
            <TabsTrigger value="consumption" className="justify-start">
              Consumption
            </TabsTrigger>
            <TabsTrigger value="actions" className="justify-start">
              Actions
            </TabsTrigger>
          </TabsList>
          <div className="min-w-0 flex-1">
            <TabsContent value="account" className="mt-0">
              <AccountTab user={user} />
            </TabsContent>
            <TabsContent value="consumption" className="mt-0">
              <ConsumptionTab user={user} />
            </TabsContent>
            <TabsContent value="actions" className="mt-0">
              <ActionsTab isPremium={isProNow(user)} />
            </TabsContent>
          </div>
        </Tabs>
      </main>
    </>
  )
}
