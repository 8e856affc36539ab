// Settings > Actions > Shared links: every link the person created, with Revoke.
import ExternalLink from 'lucide-react/icons/external-link'
import Trash2 from 'lucide-react/icons/trash'
import { useId } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { toast } from '#client/hooks/use-toast.ts'
import { errorText } from '#client/lib/api.ts'
import { useRevokeShare, useShareLinks } from '../api/shares.ts'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function SharedLinksCard() {
  const links = useShareLinks()
  const revoke = useRevokeShare()
  const titleId = useId()
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Shared links</CardTitle>
        <CardDescription>
          Read-only links to conversations you shared. Revoking a link makes it stop working at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {links.isLoading ? (
          <Spinner className="mx-auto block size-5" label="Loading shared links" />
        ) : links.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Failed to load your shared links.
          </p>
        ) : !links.data?.length ? (
          <p className="text-sm text-muted-foreground">You have not shared any conversation.</p>
        ) : (
          <ul className="divide-y" aria-label="Shared links">
            {links.data.map((link) => (
              <li key={link.token} className="flex items-center gap-3 py-3" data-testid="shared-link">
                <div className="min-w-0 flex-1">
                  <a
                    href={link.url}
                    target="_blank"
                    rel="noreferrer"
                    className="flex items-center gap-1 truncate font-medium text-primary hover:underline"
                  >
                    {link.title} <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
                  </a>
                  <p className="text-xs text-muted-foreground">
                    {dateFormat.format(new Date(link.createdAt))}
                    {link.allowIndexing ? ' · search engines may index it' : ''}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={revoke.isPending}
                  aria-label={`Revoke the link to ${link.title}`}
                  onClick={() =>
                    revoke.mutate(link.token, {
                      onSuccess: () => toast({ title: 'Link revoked' }),
                      onError: (err) =>
                        toast({
                          title: 'Error',
                          description: errorText(err, 'The link could not be revoked'),
                          variant: 'destructive',
                        }),
                    })
                  }
                >
                  <Trash2 aria-hidden="true" /> Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
