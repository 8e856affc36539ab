import type { ComponentProps, ReactNode } from 'react'
import { Input } from './ui/input.tsx'
import { Label } from './ui/label.tsx'

/**
 * A labelled input and, when there is one, its error below it: announced, and tied to the input
 * by aria-describedby and aria-invalid.
 */
export function TextField({
  id,
  label,
  error,
  ...input
}: ComponentProps<typeof Input> & { id: string; label: string; error?: ReactNode }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** An e-mail address field: the browser's address keyboard and autofill. */
export function EmailField(props: Omit<ComponentProps<typeof TextField>, 'type' | 'autoComplete'>) {
  return <TextField type="email" autoComplete="email" {...props} />
}
