// What a reply's text needs beyond plain markdown, decided cheaply before anything is loaded.

/** A fenced code block that names its language (```ts). */
export function needsHighlight(text: string): boolean {
  return /(^|\n)\s{0,3}(```|~~~)[ \t]*[\w+#-]+/.test(text)
}

/** TeX between $...$ or $$...$$ (or \(...\), \[...\] are not markdown math and stay text). */
export function needsMath(text: string): boolean {
  return /\$\$[\s\S]+?\$\$/.test(text) || /(^|[^\\$\w])\$[^\s$](?:[^$\n]*[^\s$\\])?\$(?![\w$])/.test(text)
}
