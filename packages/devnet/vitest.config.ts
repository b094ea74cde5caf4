import { configDefaults, defineConfig } from 'vitest/config';

// The files that wait on the devnet's election cycle (a minute or more of mostly idle wall time each, at a tenth of
// a core) are a stream of their own: `npm run test:elections` runs only them, `npm test` everything else, so that
// turbo can run them beside the CPU-bound tests instead of before or after them.
const ELECTION_BOUND = ['test/elector.test.ts', 'test/seed-pools.test.ts', 'test/complaints.test.ts'];
const electionStream = process.env.TONGATE_TEST_STREAM === 'elections';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The sandbox emulator is CPU-bound WASM; files in parallel only compete for the same cores.
    fileParallelism: false,
    include: electionStream ? ELECTION_BOUND : configDefaults.include,
    exclude: [...configDefaults.exclude, ...(electionStream ? [] : ELECTION_BOUND)],
  },
});
