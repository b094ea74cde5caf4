import { isChainError } from '@tongate/chain';
import { ApiError } from '@tongate/stubs';

/**
 * What a chain failure means to a client, for the operations of both API versions: the one place where a
 * ChainError becomes a status (the front door only knows ApiError). An internal failure stays what it is: a 500
 * the front door logs with its stack.
 */
export function apiErrorOf(err: unknown): unknown {
  if (!isChainError(err)) return err;
  switch (err.kind) {
    case 'not_found':
      return new ApiError(404, err.message);
    case 'refused':
    case 'invalid':
      return new ApiError(422, err.message);
    case 'timeout':
      return new ApiError(504, 'Liteserver timeout');
    case 'unavailable':
      return new ApiError(503, 'no chain backend available');
    default:
      return err;
  }
}

/** `handler` with its chain failures answered as apiErrorOf says. */
export function mapChainErrors<I, R>(handler: (input: I) => Promise<R>): (input: I) => Promise<R> {
  return async (input) => {
    try {
      return await handler(input);
    } catch (err) {
      throw apiErrorOf(err);
    }
  };
}
