// What the person reads when a send's answer is not the stream the chat expects: the chat's
// first load needs them, the stream reader (sse-lines.ts, loaded with the first send) throws them.
export const NON_JSON_MESSAGE = 'Received non-JSON response from server'
export const NO_STREAM_MESSAGE = 'No response stream available'
