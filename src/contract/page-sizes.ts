// How many items one page of a list holds, without zod: the chat's first load asks for
// its first pages (decision 044; threads.ts and messages.ts re-export them).
export const THREADS_PAGE_SIZE = 50
export const MESSAGES_PAGE_SIZE = 30
