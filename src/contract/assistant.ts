import { z } from 'zod'
import { withoutNul } from './text.ts'

/** Longest custom instruction (each of the two fields), characters. */
export const INSTRUCTION_MAX_CHARS = 1_500
/** Longest project name and project instructions. */
export const PROJECT_NAME_MAX_CHARS = 100
export const PROJECT_INSTRUCTIONS_MAX_CHARS = 4_000

const instruction = (label: string) =>
  withoutNul(
    z
      .string()
      .max(
        INSTRUCTION_MAX_CHARS,
        `${label} is at most ${INSTRUCTION_MAX_CHARS.toLocaleString('en-US')} characters`,
      ),
    'instructions',
  )

/** GET / PUT /api/settings/instructions: sent to every mode's model while enabled. */
export const instructionsSchema = z.object({
  aboutMe: instruction('What Loris should know about you'),
  howToRespond: instruction('How Loris should answer'),
  enabled: z.boolean(),
})
export type Instructions = z.infer<typeof instructionsSchema>

/** POST /api/projects, PUT /api/projects/:id. */
export const projectBody = z.object({
  name: withoutNul(
    z
      .string()
      .trim()
      .min(1, 'A project needs a name')
      .max(PROJECT_NAME_MAX_CHARS, `A project name is at most ${PROJECT_NAME_MAX_CHARS} characters`),
    'name',
  ),
  instructions: withoutNul(
    z
      .string()
      .max(
        PROJECT_INSTRUCTIONS_MAX_CHARS,
        `Project instructions are at most ${PROJECT_INSTRUCTIONS_MAX_CHARS.toLocaleString('en-US')} characters`,
      ),
    'instructions',
  ).default(''),
})
export type ProjectBody = z.input<typeof projectBody>

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructions: z.string(),
  createdAt: z.string(),
})
export type Project = z.infer<typeof projectSchema>
export const projectListSchema = z.array(projectSchema)

export const projectIdParam = z.object({ id: z.uuid({ error: 'Unknown project' }) })

/** DELETE /api/projects/:id?threads=keep|delete: its threads move out of it, or go with it. */
export const deleteProjectQuery = z.object({
  threads: z.enum(['keep', 'delete'], {
    error: 'Say what happens to its threads: threads=keep or threads=delete',
  }),
})

/** A project file: extracted once, kept as passages (its bytes are not kept). */
export const projectFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  chars: z.number(),
  passages: z.number(),
  createdAt: z.string(),
})
export type ProjectFile = z.infer<typeof projectFileSchema>
export const projectFileListSchema = z.array(projectFileSchema)

/** PUT /api/threads/:id/project: null takes the thread out of its project. */
export const threadProjectBody = z.object({ projectId: z.uuid({ error: 'Unknown project' }).nullable() })
