import { configDefaults, defineConfig } from 'vitest/config';

// The files that wait on the devnet's election cycle (a minute or more of mostly idle wall time each, at a tenth of
// a core) are a stream of their own: `npm run test:waiting` runs only them, `npm test` everything else, so that
// turbo can run them beside the CPU-bound tests instead of before or after them.
const WAITING = ['test/elector.test.ts', 'test/seed-pools.test.ts', 'test/complaints.test.ts'];
const waitingStream = process.env.TONGATE_TEST_STREAM === 'waiting';

export default defineConfig({
  test: {
    // Hang bounds, not speed goals: under `npm test` the CPU-bound files run at nice 10 beside the cli's end-to-end
    // streams and get a tenth of a core.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The sandbox emulator is CPU-bound WASM; files in parallel only compete for the same cores.
    fileParallelism: false,
    include: waitingStream ? WAITING : configDefaults.include,
    exclude: [...configDefaults.exclude, ...(waitingStream ? [] : WAITING)],
  },
});
