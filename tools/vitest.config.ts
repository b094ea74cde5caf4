import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The generator and Prism spawn processes; on a shared 2-core machine run files one at a time.
    fileParallelism: false,
    // Hang bounds, not speed goals: under `npm test` these tests run at nice 10 beside the cli's end-to-end streams
    // and get a tenth of a core, so a generator run that takes 2.5 s alone can take 30 s or more.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
