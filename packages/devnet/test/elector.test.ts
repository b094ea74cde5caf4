import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeElectionConfig, loadConfigDictionary } from '@tongate/contracts';
import { createDevnet, ELECTOR_ADDRESS, type Devnet } from '../src/index.js';

/** Short enough for a test: a set validates 24 s, elections open 16 s before it and close 6 s before. */
const TIMING = { validatorsElectedFor: 24, electionsStartBefore: 16, electionsEndBefore: 6, stakeHeldFor: 4 };

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('devnet elector', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 500, electionTiming: TIMING });
  });
  afterAll(async () => {
    await devnet?.close();
  });

  it('runs a full election cycle: announced, staked, elected, installed, unfrozen, recovered', async () => {
    const summary = await devnet.seed();
    expect(summary.validators?.elector.equals(ELECTOR_ADDRESS)).toBe(true);
    const stakeHolders = summary.validators!.validators.map((v) => v.stakeHolder.hash.toString('hex'));
    const elected = await until('an elected set', 40_000, async () => {
      const s = await devnet.electionStatus();
      return s.state.pastElections.find((p) => p.frozen.length === stakeHolders.length);
    });
    expect(elected.frozen.map((f) => f.stakeHolderAddress.hash.toString('hex')).sort()).toEqual([...stakeHolders].sort());
    // The set becomes param 34 at its start.
    await until('the elected set installed', 40_000, async () => {
      const cfg = decodeElectionConfig(loadConfigDictionary(await devnet.getConfigAll()));
      return cfg.currentValidators?.hash === elected.vsetHash && cfg.previousValidators !== null;
    });
    // The next election replaces it; then the first round is unfrozen and its stakes recovered.
    await until('the first round unfrozen and recovered', 80_000, async () => {
      const s = await devnet.electionStatus();
      return !s.state.pastElections.some((p) => p.electionId === elected.electionId) && stakeHolders.every((h) => !s.state.credits.has(h));
    });
    const status = await devnet.electionStatus();
    expect(status.timing).toEqual(TIMING);
  }, 180_000);
});
