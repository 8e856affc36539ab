// Documents for knowledge retrieval tests: many dull paragraphs and one that answers the question
// the tests ask, and a project file added through the API.
import { expect } from 'vitest'
import type { TestApp } from './test-app.ts'

export const FACT =
  'The lighthouse keeper Marguerite Ovalle recorded that the quokka colony numbered 412 animals.'

/** `paragraphs` dull paragraphs (about 190 characters each), with FACT after the one at `factAt`. */
export function documentWithFact(paragraphs: number, factAt = Math.floor(paragraphs / 2)): string {
  const parts: string[] = []
  for (let i = 0; i < paragraphs; i++) {
    parts.push(
      `Section ${i}. The committee reviewed routine logistics, catering budgets and parking arrangements for the annual meeting, noting nothing unusual about chairs, tables or coffee supplies in hall ${i}.`,
    )
    if (i === factAt) parts.push(FACT)
  }
  return parts.join('\n\n')
}

/** Adds `text` as a file of the project and returns the stored file (201 expected). */
export async function addProjectFile(
  t: TestApp,
  cookie: string,
  projectId: string,
  name: string,
  text: string,
) {
  const form = new FormData()
  form.append('file', new File([text], name, { type: 'text/plain' }))
  const res = await t.request(`/api/projects/${projectId}/files`, { method: 'POST', cookie, body: form })
  expect(res.status).toBe(201)
  return (await res.json()) as { name: string; chars: number; passages: number }
}
