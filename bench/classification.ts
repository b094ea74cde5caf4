/**
 * Classification rate: how many traces per second the action classifier handles over the golden fixtures (real
 * mainnet traces). Shared by bench:actions and bench:v3.
 *
 * Each round classifies every fixture once (parsing included: bodies are decoded from their BOCs as the indexer
 * would hand them over); the fixtures' JSON is read once beforehand. Rounds are repeated and the best and median
 * rates reported, as in the other benches (a 2-core virtual machine is noisy).
 */
import { CLASSIFIER_VERSION, classifyTrace, listGoldenFixtures, readGoldenFixture } from '@tongate/actions';
import { fixturePath } from '@tongate/testdata';

const WARMUP_ROUNDS = 20;
const ROUNDS = 15;
const ROUND_REPEATS = 20;

export function measureClassificationRate() {
  const fixtures = listGoldenFixtures(fixturePath('actions')).map((f) => readGoldenFixture(f));
  const transactions = fixtures.reduce((n, f) => n + f.transactions.length, 0);
  const round = (): number => {
    const started = process.hrtime.bigint();
    let actions = 0;
    for (let i = 0; i < ROUND_REPEATS; i++) for (const f of fixtures) actions += classifyTrace(f).length;
    if (actions === 0) throw new Error('classifier produced no actions');
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  for (let i = 0; i < WARMUP_ROUNDS; i++) round();
  const rates = Array.from({ length: ROUNDS }, () => (fixtures.length * ROUND_REPEATS) / round()).sort((a, b) => a - b);
  const best = rates[rates.length - 1]!;
  const median = rates[Math.floor(rates.length / 2)]!;
  return {
    classifier_version: CLASSIFIER_VERSION,
    fixtures: fixtures.length,
    transactions,
    rounds: ROUNDS,
    traces_per_round: fixtures.length * ROUND_REPEATS,
    traces_per_second: { best: Math.round(best), median: Math.round(median), all: rates.map(Math.round) },
    transactions_per_second: {
      best: Math.round((best * transactions) / fixtures.length),
      median: Math.round((median * transactions) / fixtures.length),
    },
  };
}
