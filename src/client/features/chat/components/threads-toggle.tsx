// The header's button that hides or shows the desktop thread list.
import PanelLeftClose from 'lucide-react/icons/panel-left-close'
import PanelLeftOpen from 'lucide-react/icons/panel-left-open'
import { Button } from '#client/components/ui/button.tsx'
import { Tooltip, TooltipContent, TooltipTrigger } from '#client/components/ui/tooltip.tsx'
import { toggleThreadsPanel, useThreadsCollapsed } from '../hooks/use-threads-collapse.ts'

export function ThreadsToggle() {
  const collapsed = useThreadsCollapsed()
  const label = collapsed ? 'Show thread list' : 'Hide thread list'
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={label}
          aria-expanded={!collapsed}
          data-testid="threads-toggle"
          onClick={toggleThreadsPanel}
        >
          {collapsed ? <PanelLeftOpen aria-hidden="true" /> : <PanelLeftClose aria-hidden="true" />}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  )
}
