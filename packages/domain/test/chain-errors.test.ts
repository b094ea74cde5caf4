import { ChainError, type ChainErrorKind } from '@tongate/chain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@tongate/stubs';
import { apiErrorOf, mapChainErrors } from '../src/chain-errors.js';

describe('chain failures as statuses', () => {
  it('maps each ChainError kind; an internal one, and anything else, passes through', () => {
    const cases: [ChainErrorKind, number, string][] = [
      ['not_found', 404, 'no such block'],
      ['refused', 422, 'exit code 33'],
      ['invalid', 422, 'bad boc'],
      ['timeout', 504, 'Liteserver timeout'],
      ['unavailable', 503, 'no chain backend available'],
    ];
    for (const [kind, status, text] of cases) {
      const mapped = apiErrorOf(new ChainError(kind, kind === 'timeout' || kind === 'unavailable' ? 'inner detail' : text));
      expect(mapped).toBeInstanceOf(ApiError);
      expect(mapped).toMatchObject({ status, message: text });
    }
    const internal = new ChainError('internal', 'cell underflow');
    expect(apiErrorOf(internal)).toBe(internal);
    const other = new TypeError('x');
    expect(apiErrorOf(other)).toBe(other);
  });

  it('a wrapped handler throws the mapped error', async () => {
    const handler = mapChainErrors(async (_input: number) => {
      throw new ChainError('timeout', 'slow');
    });
    await expect(handler(1)).rejects.toMatchObject({ name: 'ApiError', status: 504 });
  });
});
