// The heavy parts of reply rendering, loaded only when a reply needs them: code
// highlighting (rehype-highlight) and math (remark-math + KaTeX) with their styles. /chat's
// first load stays as it was; markdown.tsx imports this file dynamically.
import 'highlight.js/styles/github-dark.css'
import 'katex/dist/katex.min.css'
import rehypeHighlight from 'rehype-highlight'
import rehypeKatex from 'rehype-katex'
import remarkMath from 'remark-math'

export const mathPlugins = { remark: [remarkMath], rehype: [rehypeKatex] }
// detect: false: only fences that name their language are coloured (a guess costs time and is
// often wrong on short snippets); ignoreMissing: an unknown language stays plain, never throws.
export const codePlugins = { rehype: [[rehypeHighlight, { detect: false, ignoreMissing: true }]] }
