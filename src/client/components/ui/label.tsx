import * as LabelPrimitive from '@radix-ui/react-label'
import type * as React from 'react'
import { cn } from '#client/lib/cn.ts'

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn('text-sm font-medium leading-none peer-disabled:opacity-70', className)}
      {...props}
    />
  )
}
