import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Hang bounds, not speed goals: under `npm test` these tests run at nice 10 beside the cli's end-to-end streams.
  test: { hookTimeout: 180_000, testTimeout: 120_000 },
});
