import { z } from 'zod'

/** GET /api/uploads/:id serves the owner's file; anyone else gets 404. */
export const uploadIdParam = z.object({ id: z.uuid({ error: 'Unknown file' }) })
