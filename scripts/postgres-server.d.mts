// Types of postgres-server.mjs for the TypeScript tests and benches that start a throwaway server.
export function startPostgres(): Promise<{ url: string; stop(): void }>
