// The passages of a project's files a reply was given, cited [n] in the order the model was sent
// them, and the input retrieval saved against sending the files whole.
import type { MessageKnowledge } from '#contract/messages.ts'

export function retrievalSaving(k: MessageKnowledge): string {
  const n = k.passages.length
  return `${n} passage${n === 1 ? '' : 's'} instead of ${k.filesChars.toLocaleString('en-US')} characters`
}

export function ReplySources({ knowledge }: { knowledge: MessageKnowledge }) {
  return (
    <details className="mt-2 text-xs text-muted-foreground" data-testid="reply-sources">
      <summary className="cursor-pointer" data-testid="retrieval-saving">
        Sources: {retrievalSaving(knowledge)}
      </summary>
      <ol className="mt-1 grid gap-1">
        {knowledge.passages.map((p, i) => (
          <li key={`${p.fileName}-${p.text.slice(0, 80)}`} data-testid="reply-source">
            <span className="font-medium">
              [{i + 1}] {p.fileName}
            </span>
            <p className="line-clamp-4 whitespace-pre-wrap">{p.text}</p>
          </li>
        ))}
      </ol>
    </details>
  )
}
