// A stored upload as an HTTP answer (the owner's download, a share's file): its bytes streamed
// from storage as the client reads them, so a download holds a chunk in memory whatever the
// file's size, and a client gone stops the read.
import type { ObjectStorage } from './storage.ts'

// Shown inline: raster images only. SVG can carry script, documents are opened by other programs:
// both download instead of rendering on our origin.
const INLINE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

function disposition(type: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

export interface StoredFile {
  storageKey: string
  mimeType: string
  fileName: string
}

/** The file's answer with `headers` added, or null when its bytes are not in storage. */
export async function storedFileResponse(
  storage: ObjectStorage,
  file: StoredFile,
  headers: Record<string, string>,
): Promise<Response | null> {
  const stored = await storage.open(file.storageKey)
  if (!stored) return null
  return new Response(stored.body, {
    status: 200,
    headers: {
      'Content-Type': file.mimeType,
      ...(stored.size !== null ? { 'Content-Length': String(stored.size) } : {}),
      'Content-Disposition': disposition(INLINE.has(file.mimeType) ? 'inline' : 'attachment', file.fileName),
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    },
  })
}
