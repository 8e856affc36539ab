import { describe, expect, it } from 'vitest'
import { fuseRankings } from './embeddings.ts'

describe('reciprocal rank fusion', () => {
  it('puts first what both rankings rank well, then what one ranks first', () => {
    expect(
      fuseRankings(
        [
          ['a', 'b', 'c'],
          ['b', 'd', 'e'],
        ],
        3,
      ),
    ).toEqual(['b', 'a', 'd'])
  })

  it('breaks ties in the order of the first ranking, and keeps at most `limit`', () => {
    expect(
      fuseRankings(
        [
          ['a', 'b'],
          ['x', 'y'],
        ],
        3,
      ),
    ).toEqual(['a', 'x', 'b'])
    expect(fuseRankings([['a', 'b', 'c'], []], 2)).toEqual(['a', 'b'])
  })

  it('gives nothing for no candidates', () => {
    expect(fuseRankings([[], []], 3)).toEqual([])
  })
})
