import { defineConfig } from 'vitest/config';

// PGlite and devnet start-up take seconds on a busy machine (CI runs several packages at once).
export default defineConfig({
  test: { hookTimeout: 120_000, testTimeout: 60_000 },
});
