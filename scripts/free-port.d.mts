/** A loopback port nothing listens on right now (the OS picks it), for a server a script or test starts. */
export function freePort(): Promise<number>
