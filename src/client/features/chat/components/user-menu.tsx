import { useMutation, useQueryClient } from '@tanstack/react-query'
import CircleUser from 'lucide-react/icons/circle-user'
import FileText from 'lucide-react/icons/file-text'
import LogOut from 'lucide-react/icons/log-out'
import Settings from 'lucide-react/icons/settings'
import Shield from 'lucide-react/icons/shield'
import ShieldCheck from 'lucide-react/icons/shield-check'
import Trash2 from 'lucide-react/icons/trash'
import { useState } from 'react'
import { Link } from 'wouter'
import { useLogout } from '#client/app/api/logout.ts'
import { ConfirmDialog } from '#client/components/confirm-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx'
import { toast } from '#client/hooks/use-toast.ts'
import { apiRequest } from '#client/lib/api.ts'
import { clearSelection } from '../hooks/use-thread-selection.ts'

function useClearHistory() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/messages'),
    onSuccess: async () => {
      // Every thread but Default is gone: go back to Default, and refetch messages only once a
      // thread that still exists is shown (never the deleted one on screen now).
      clearSelection()
      await queryClient.invalidateQueries({ queryKey: ['/api/messages'], refetchType: 'none' })
      await queryClient.invalidateQueries({ queryKey: ['/api/threads'] })
      await queryClient.invalidateQueries({ queryKey: ['/api/search'] })
      toast({ title: 'Chat history cleared', description: 'Your chat history has been cleared successfully' })
    },
    onError: () =>
      toast({
        title: 'Error clearing history',
        description: 'Failed to clear chat history',
        variant: 'destructive',
      }),
  })
}

/** Every thread goes, favourites included: asked first. */
function ClearHistoryDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const clearHistory = useClearHistory()
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Clear all chat history?"
      description="Every thread is deleted, favorites included, and Default is emptied. Your CO2 savings and trees stay. This cannot be undone."
      action="Clear History"
      disabled={clearHistory.isPending}
      onConfirm={() => {
        clearHistory.mutate()
        onOpenChange(false)
      }}
    />
  )
}

/**
 * Spec section 2: Account, Clear History, Privacy Policy, Terms of Service, Sign Out; and for an
 * operator, the operator's console.
 */
export function UserMenu({ email, operator = false }: { email: string; operator?: boolean }) {
  const logout = useLogout()
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label="User menu">
            <CircleUser className="size-5" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-56">
          <DropdownMenuLabel className="truncate font-normal text-muted-foreground">
            {email}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href="/account">
              <Settings /> Account
            </Link>
          </DropdownMenuItem>
          {operator ? (
            <DropdownMenuItem asChild>
              <Link href="/admin">
                <ShieldCheck /> Operator's console
              </Link>
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={() => setConfirming(true)}>
            <Trash2 /> Clear History
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href="/privacy-policy?from=chat">
              <Shield /> Privacy Policy
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href="/terms-of-service?from=chat">
              <FileText /> Terms of Service
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => logout.mutate({})}>
            <LogOut /> Sign Out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ClearHistoryDialog open={confirming} onOpenChange={setConfirming} />
    </>
  )
}
