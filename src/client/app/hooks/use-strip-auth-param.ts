import { useEffect } from 'react'

/**
 * Google sign-in returns to the page it began on with ?auth=google (decision 005); the parameter
 * goes (spec section 2), so a reload or a copied address does not carry it.
 */
export function useStripAuthParam() {
  useEffect(() => {
    const url = new URL(window.location.href)
    if (url.searchParams.get('auth') !== 'google') return
    url.searchParams.delete('auth')
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
  }, [])
}
