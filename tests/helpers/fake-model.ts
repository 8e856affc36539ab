// A provider model of the AI SDK's current specification (v3), streaming what `doStream` makes:
// for tests of the token path without a provider's wire format.
import type { LanguageModelV3 } from '@ai-sdk/provider'

export function fakeLanguageModel(doStream: LanguageModelV3['doStream']): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'fake',
    modelId: 'fake-1',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('not used')),
    doStream,
  }
}
