// The whole schema, by aggregate. Change a file here, then `npm run db:generate` and commit
// the generated migration (never edit an applied one).
export * from './admin.ts'
export * from './assistant.ts'
export * from './billing.ts'
export * from './chat.ts'
export * from './sharing.ts'
export * from './users.ts'
export * from './waitlist.ts'
