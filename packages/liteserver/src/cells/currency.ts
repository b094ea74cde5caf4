import type { Slice } from '@ton/core';

/** CurrencyCollection (grams, extra currencies): skipped where it is a dictionary's extra or a fee. */
export const skipCurrencyCollection = (s: Slice) => {
  s.loadCoins();
  s.loadMaybeRef(); // extra currencies
};
