import { configDefaults, defineConfig } from 'vitest/config';

// PGlite and devnet start-up take seconds on a busy machine; test files run one at a time to keep limits exact.
// The v2 and v3 end-to-end files (the indexer, its sales, DNS, vesting and multisig derivations, the actions of the devnet traffic and pending traces included) and the bad-input sweep run twice: on the devnet backend, and on the liteserver
// backend reading the same devnets through ADNL liteservers (gateway-fixture.ts).
//
// The files that spend most of their time waiting, on the devnet's election cycle or on processes of their own (the
// production topology, a packed client's install and type check, a production build, browsers, `tongate` commands),
// are a second stream: `npm run test:waiting` runs only them, `npm test` (vitest run) everything else, so that turbo
// runs the two side by side and neither stream is much longer than the other.
const WAITING = [
  'test/v3-validators.test.ts',
  'test/v3-pools-single.test.ts',
  'test/v3-pools-staking.test.ts',
  'test/devnet-complain.test.ts',
  'test/liteserver-topology.test.ts',
  'test/client-package.test.ts',
  'test/production-build.test.ts',
  'test/docs-browser.test.ts',
  'test/start.test.ts',
  'test/cors-browser.test.ts',
  'test/actions-classify.test.ts',
  'test/cli-help.test.ts',
  'test/devnet-liteserver.test.ts',
];
const waitingStream = process.env.TONGATE_TEST_STREAM === 'waiting';

/** A project's files (`'all'` or a list) in this run's stream: the waiting ones among them, or all the others. */
function stream(files: string[] | 'all', exclude: string[] = []) {
  const include = waitingStream
    ? WAITING.filter((f) => files === 'all' || files.includes(f))
    : files === 'all'
      ? configDefaults.include
      : files;
  return { include, exclude: [...configDefaults.exclude, ...exclude, ...(waitingStream ? [] : WAITING)] };
}

export default defineConfig({
  test: {
    hookTimeout: 120_000,
    testTimeout: 60_000,
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'devnet',
          ...stream('all', ['test/liteserver-*.test.ts']),
          env: { TONGATE_TEST_BACKEND: 'devnet' },
        },
      },
      {
        extends: true,
        test: {
          name: 'liteserver',
          ...stream([
            'test/v2-rest.test.ts',
            'test/v2-clients.test.ts',
            'test/v2-dns-post.test.ts',
            'test/v3-legacy.test.ts',
            'test/v3-indexed.test.ts',
            'test/v3-tokens.test.ts',
            'test/v3-sales.test.ts',
            'test/v3-dns-multisig.test.ts',
            'test/v3-pending.test.ts',
            'test/v3-emulate.test.ts',
            'test/v3-validators.test.ts',
            'test/v3-actions-precision.test.ts',
            'test/bad-input-sweep.test.ts',
            'test/streaming.test.ts',
            'test/liteserver-health.test.ts',
            'test/liteserver-topology.test.ts',
          ]),
          env: { TONGATE_TEST_BACKEND: 'liteserver' },
        },
      },
    ],
  },
});
