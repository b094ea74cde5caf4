import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeElectionConfig, decodeValidatorSet, loadConfigDictionary } from '@tongate/contracts';
import { WHOLE_SHARD } from '@tongate/chain';
import { createDevnet, ELECTOR_ADDRESS, type Devnet } from '../src/index.js';
import { SHORT_ELECTION_TIMING, until } from './helpers.js';

const TIMING = SHORT_ELECTION_TIMING;

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
    // Every devnet validator is elected (the seeded nominator pool stakes beside them, so the set may hold more).
    const holdersOf = (p: { frozen: { stakeHolderAddress: { hash: Buffer } }[] }) =>
      new Set(p.frozen.map((f) => f.stakeHolderAddress.hash.toString('hex')));
    const elected = await until('an elected set', 40_000, async () => {
      const s = await devnet.electionStatus();
      return s.state.pastElections.find((p) => stakeHolders.every((h) => holdersOf(p).has(h)));
    });
    expect(stakeHolders.every((h) => holdersOf(elected).has(h))).toBe(true);
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

describe('devnet elector, idle and restarted', () => {
  it('records no elector transaction while it has nothing to do', async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        const block = await devnet.produceBlock();
        expect(
          (await devnet.listBlockTransactions({ workchain: -1, shard: WHOLE_SHARD, seqno: block.seqno }, { count: 10 })).transactions,
        ).toEqual([]);
      }
      const p34 = decodeValidatorSet((await devnet.getConfigParam(34))!);
      expect(p34.validators.map((v) => v.pubkey)).toEqual([devnet.validator.publicKey.toString('hex')]);
      expect((await devnet.electionStatus()).election).toBeNull();
    } finally {
      await devnet.close();
    }
  });

  it('resumes with the config its elections made', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-elector-'));
    try {
      const first = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 500, electionTiming: TIMING });
      let installed: string;
      try {
        await first.seed();
        installed = await until('a set installed by the elector', 60_000, async () => {
          const cfg = decodeElectionConfig(loadConfigDictionary(await first.getConfigAll()));
          return cfg.previousValidators ? cfg.currentValidators!.hash : null;
        });
      } finally {
        await first.close();
      }
      const again = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0, electionTiming: TIMING });
      try {
        const cfg = decodeElectionConfig(loadConfigDictionary(await again.getConfigAll()));
        expect(cfg.previousValidators).not.toBeNull();
        const status = await again.electionStatus();
        // The restored config is the one the elector last saw (its active set), not the genesis one.
        expect([cfg.currentValidators!.hash, installed]).toContain(status.state.activeHash);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
