import { defineConfig } from 'vitest/config';

// Hang bounds, not speed goals: under `npm test` this package's tests run at a lower CPU priority beside the
// end-to-end streams and may get a small share of a core, where a test of a second alone can take far longer.
export default defineConfig({
  test: { hookTimeout: 120_000, testTimeout: 60_000 },
});
