import AlertCircle from 'lucide-react/icons/circle-exclamation-point'
import { Link } from 'wouter'
import { Card, CardContent } from '#client/components/ui/card.tsx'

/** Spec section 2: any unknown path. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh w-full items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardContent className="pt-6">
          <div className="mb-4 flex gap-2">
            <AlertCircle className="size-8 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="mt-4 text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
          <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <Link href="/" className="text-primary underline-offset-4 hover:underline">
              Go to the home page
            </Link>
            <Link href="/chat" className="text-primary underline-offset-4 hover:underline">
              Go to the chat
            </Link>
          </p>
        </CardContent>
      </Card>
    </main>
  )
}
