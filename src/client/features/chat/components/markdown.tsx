// Markdown for both sides of an exchange (spec section 2 'Reply rendering'): GFM, no raw HTML,
// links limited by safeUrl, images that hide themselves when they fail, remote images only when the
// person asks, copy on tables and code. Code fences that name their language are highlighted and
// math is typeset, with code loaded only when a text needs it (lib/rich-markdown.ts).
import ImageOff from 'lucide-react/icons/image-off'
import { Children, isValidElement, memo, useEffect, useMemo, useRef, useState } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkBreaks from 'remark-breaks'
import remarkGfm from 'remark-gfm'
import { cn } from '#client/lib/cn.ts'
import { imageSource } from '../lib/image-source.ts'
import { needsHighlight, needsMath } from '../lib/rich-needs.ts'
import { safeUrl } from '../lib/safe-url.ts'
import { rowsToTsv, tableRows } from '../lib/table-tsv.ts'
import { CopyButton } from './copy-button.tsx'

function ReplyImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  const [failed, setFailed] = useState(false)
  if (failed || typeof src !== 'string' || !src) return null
  const source = imageSource(src, window.location.href)
  if (!source) return null
  if (source.kind === 'remote') return <RemoteImage src={source.src} host={source.host} alt={alt} />
  const generated = Boolean(alt?.includes('Image'))
  return (
    <span className="my-2 block">
      <img
        src={src}
        alt={alt ?? ''}
        loading="lazy"
        className="max-h-[500px] max-w-full rounded-md object-contain"
        onError={() => {
          console.warn('Image failed to load and was hidden:', src)
          setFailed(true)
        }}
      />
      {generated && <span className="mt-1 block text-xs text-muted-foreground">AI-generated image</span>}
    </span>
  )
}

/**
 * An image from another site is not fetched: fetching it could hand that site whatever a reply put
 * in its address. The person sees where it is from and may open it, in a new tab with no referrer
 * (the page's CSP keeps remote images out of the chat itself).
 */
function RemoteImage({ src, host, alt }: { src: string; host: string; alt?: string }) {
  return (
    <span
      data-testid="remote-image"
      className="my-2 flex flex-wrap items-center gap-2 rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground"
    >
      <ImageOff aria-hidden className="size-4 shrink-0" />
      <span>
        Image from <strong className="font-medium text-foreground">{host}</strong> not loaded
        {alt ? <span className="italic">: {alt}</span> : null}
      </span>
      <button
        type="button"
        className="rounded border bg-background px-2 py-0.5 text-xs font-medium text-foreground hover:bg-muted"
        onClick={() => window.open(src, '_blank', 'noopener,noreferrer')}
      >
        Load image<span className="sr-only"> from {host} in a new tab</span>
      </button>
    </span>
  )
}

function CopyableTable({ children }: { children?: React.ReactNode }) {
  const ref = useRef<HTMLTableElement>(null)
  return (
    <div className="group relative my-3 overflow-x-auto rounded-md border">
      <table ref={ref} className="w-full border-collapse text-sm">
        {children}
      </table>
      <CopyButton label="Copy table" read={() => (ref.current ? rowsToTsv(tableRows(ref.current)) : '')} />
    </div>
  )
}

/** The fence's language, from the code element's `language-x` class. */
function languageOf(children: React.ReactNode): string | null {
  const first = Children.toArray(children)[0]
  if (!isValidElement(first)) return null
  const className = (first.props as { className?: unknown }).className
  return typeof className === 'string' ? (/language-([\w+#-]+)/.exec(className)?.[1] ?? null) : null
}

/** A code block under a bar with its language and Copy: the button never sits over the code. */
function CopyableCode({ children }: { children?: React.ReactNode }) {
  const ref = useRef<HTMLPreElement>(null)
  const language = languageOf(children)
  return (
    <div className="my-3 overflow-hidden rounded-md border bg-muted" data-testid="code-block">
      <div className="flex items-center justify-between gap-2 border-b px-3 py-1 text-xs text-muted-foreground">
        <span data-testid="code-language">{language ?? 'text'}</span>
        <CopyButton
          label="Copy code"
          read={() => ref.current?.textContent ?? ''}
          className="static border-0 bg-transparent p-1 opacity-100"
        />
      </div>
      <pre ref={ref} className="overflow-x-auto p-3 text-sm">
        {children}
      </pre>
    </div>
  )
}

const components: Components = {
  img: ({ src, alt }) => <ReplyImage src={src} alt={alt} />,
  table: ({ children }) => <CopyableTable>{children}</CopyableTable>,
  th: ({ children }) => <th className="border-b bg-muted px-3 py-1.5 text-left font-semibold">{children}</th>,
  td: ({ children }) => <td className="border-b px-3 py-1.5 align-top">{children}</td>,
  pre: ({ children }) => <CopyableCode>{children}</CopyableCode>,
  code: ({ className, children }) => (
    <code
      className={cn(
        'rounded bg-muted px-1 py-0.5 font-mono text-[0.9em] [pre_&]:bg-transparent! [pre_&]:p-0!',
        className,
      )}
    >
      {children}
    </code>
  ),
  a: ({ href, children }) =>
    href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="text-primary underline underline-offset-2"
      >
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  ul: ({ children }) => <ul className="my-2 list-disc pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="my-2 list-decimal pl-6">{children}</ol>,
  p: ({ children }) => <p className="my-2 first:mt-0 last:mb-0">{children}</p>,
  h1: ({ children }) => <h3 className="mb-2 mt-4 text-xl font-semibold">{children}</h3>,
  h2: ({ children }) => <h4 className="mb-2 mt-4 text-lg font-semibold">{children}</h4>,
  h3: ({ children }) => <h5 className="mb-2 mt-3 font-semibold">{children}</h5>,
  blockquote: ({ children }) => (
    <blockquote className="my-2 border-l-2 pl-3 text-muted-foreground">{children}</blockquote>
  ),
}

type Rich = typeof import('../lib/rich-markdown.ts')
let rich: Rich | null = null
let loadingRich: Promise<Rich> | null = null
function loadRich(): Promise<Rich> {
  loadingRich ??= import('../lib/rich-markdown.ts').then((m) => {
    rich = m
    return m
  })
  return loadingRich
}

/** The highlighting and math code once a text needs it; plain markdown until it has loaded. */
function useRich(needed: boolean): Rich | null {
  const [loaded, setLoaded] = useState<Rich | null>(rich)
  useEffect(() => {
    if (!needed || loaded) return
    let live = true
    loadRich()
      .then((m) => live && setLoaded(m))
      .catch((err: unknown) => {
        // Plain markdown stays readable; a later reply tries again.
        loadingRich = null
        console.warn('Loading code highlighting and math failed', err)
      })
    return () => {
      live = false
    }
  }, [needed, loaded])
  return needed ? loaded : null
}

type PluginList = NonNullable<React.ComponentProps<typeof ReactMarkdown>['remarkPlugins']>

/**
 * Raw HTML in the text is dropped (skipHtml), never rendered. `breaks`: every newline is a line
 * break, as a person typed it (their own messages, where Shift+Enter starts a new line); a model's
 * reply follows Markdown, where a single newline joins the lines.
 */
export const Markdown = memo(function Markdown({
  text,
  className,
  breaks = false,
}: {
  text: string
  className?: string
  breaks?: boolean
}) {
  const code = needsHighlight(text)
  const math = needsMath(text)
  const loaded = useRich(code || math)
  const { remarkPlugins, rehypePlugins } = useMemo(() => {
    const remark: PluginList = breaks ? [remarkGfm, remarkBreaks] : [remarkGfm]
    const rehype: PluginList = []
    if (loaded && math) {
      remark.push(...loaded.mathPlugins.remark)
      rehype.push(...loaded.mathPlugins.rehype)
    }
    if (loaded && code) rehype.push(...(loaded.codePlugins.rehype as PluginList))
    return { remarkPlugins: remark, rehypePlugins: rehype }
  }, [loaded, code, math, breaks])
  return (
    <div className={cn('break-words leading-relaxed', className)}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        skipHtml
        urlTransform={safeUrl}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  )
})
