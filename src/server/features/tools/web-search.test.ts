import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { SEARCH_KEY, type SearchStandIn, startSearchStandIn } from '../../../../tests/stand-ins/search.ts'
import { createWebSearch } from './web-search.ts'

describe('web search providers', () => {
  let standIn: SearchStandIn
  beforeAll(async () => {
    standIn = await startSearchStandIn([
      { url: 'https://news.example/a', title: 'First <b>result</b>', snippet: 'About &amp; more' },
      { url: 'https://news.example/a', title: 'Duplicate', snippet: 'same address' },
      { url: 'javascript:alert(1)', title: 'Hostile', snippet: 'x' },
      { url: 'https://docs.example/b', title: '', snippet: 'No title' },
    ])
  })
  afterAll(() => standIn.close())

  const expected = [
    { url: 'https://news.example/a', title: 'First result', snippet: 'About & more' },
    { url: 'https://docs.example/b', title: 'docs.example', snippet: 'No title' },
  ]

  it('is off without a provider', () => {
    expect(createWebSearch(parseEnv({}))).toBeNull()
  })

  it('asks SearXNG, and cleans what it answers', async () => {
    const search = createWebSearch(parseEnv({ SEARXNG_URL: standIn.url }))
    expect(search?.provider).toBe('searxng')
    expect(await search?.search('loris news')).toEqual(expected)
    expect(standIn.queries.at(-1)).toMatchObject({ provider: 'searxng', query: 'loris news' })
  })

  it('asks Brave with its key', async () => {
    const search = createWebSearch(
      parseEnv({ BRAVE_SEARCH_API_KEY: SEARCH_KEY, BRAVE_SEARCH_BASE_URL: standIn.url }),
    )
    expect(await search?.search('brave query')).toEqual(expected)
    expect(standIn.queries.at(-1)).toMatchObject({ provider: 'brave', query: 'brave query' })
  })

  it('asks Tavily with its key, and says when the key is refused', async () => {
    const search = createWebSearch(parseEnv({ TAVILY_API_KEY: SEARCH_KEY, TAVILY_BASE_URL: standIn.url }))
    expect(await search?.search('tavily query')).toEqual(expected)
    const wrong = createWebSearch(parseEnv({ TAVILY_API_KEY: 'wrong', TAVILY_BASE_URL: standIn.url }))
    await expect(wrong?.search('x')).rejects.toMatchObject({
      code: 'bad_gateway:search',
      message: 'The web search (Tavily) answered with status 401.',
    })
  })
})
