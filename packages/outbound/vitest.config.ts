import { defineConfig } from 'vitest/config';

// PGlite and devnet start-up take seconds on a busy machine; test files run one at a time to keep limits exact.
export default defineConfig({
  test: { hookTimeout: 120_000, testTimeout: 60_000, fileParallelism: false },
});
