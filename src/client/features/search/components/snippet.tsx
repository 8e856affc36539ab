import type { SnippetPart } from '#contract/search.ts'

/** The matched words in <mark>; everything is text nodes, never HTML. */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts never reorder
          <mark key={i} className="rounded-sm bg-primary/25 px-0.5 text-foreground">
            {p.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts never reorder
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  )
}
