import { throwIfNotOk } from '#client/lib/api.ts'

/**
 * Fetches GET /api/export, reporting the bytes received as the server writes the zip, then
 * hands the file to the browser's downloads, unless `signal` was aborted by then (the person
 * signed out or left the page): then it throws the abort and saves nothing.
 */
export async function downloadExport(onProgress: (bytes: number) => void, signal?: AbortSignal) {
  const res = await fetch('/api/export', { credentials: 'include', signal })
  await throwIfNotOk(res)
  if (!res.body) throw new Error('The download did not start')
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let received = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    received += value.length
    onProgress(received)
  }
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'loris-data.zip'
  // Aborted after the last byte came: the zip must still not reach a shared computer's Downloads.
  signal?.throwIfAborted()
  const url = URL.createObjectURL(new Blob(chunks, { type: 'application/zip' }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
  return { bytes: received, name }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}
