// The one fetch helper: credentials always sent, non-OK answers become ApiError with the text
// rules of spec section 8, and the server's own message kept for toasts.
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** What the server said for a person to read (`error`, `details` or `message` of the body). */
  readonly serverMessage: string | undefined

  constructor(status: number, message: string, code?: string, serverMessage?: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.serverMessage = serverMessage
  }
}

function readServerMessage(bodyText: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(bodyText) as {
      code?: unknown
      error?: unknown
      details?: unknown
      message?: unknown
    }
    const message = [body.error, body.details, body.message].find((v) => typeof v === 'string' && v) as
      | string
      | undefined
    return { code: typeof body.code === 'string' ? body.code : undefined, message }
  } catch {
    return {}
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return
  const bodyText = (await res.text().catch(() => '')) || res.statusText
  const { code, message } = readServerMessage(bodyText)
  // Spec section 8: 5xx shows the status text, anything else the body text.
  const text = res.status >= 500 ? `${res.status}: ${res.statusText}` : `${res.status}: ${bodyText}`
  throw new ApiError(res.status, text, code, message)
}

export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : undefined,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  })
  await throwIfNotOk(res)
  return res
}

export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body)
  return (await res.json()) as T
}

/** The message a toast shows for a failed request. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback
  if (err instanceof Error && err.message) return err.message
  return fallback
}
