/**
 * Complaints as /validators/complaints and /validators/cycles serve them, on rows the validators derivation writes
 * (the devnet files none, and no recorded elector state has any): the accused's stake holder and ADNL address, the
 * voters resolved in the set the votes were counted in, the approved share of its weight, passed when the elector's
 * weight_remaining went below zero; filters. On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address } from '@ton/core';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore, withDomainTables, type ValidatorTables } from '@tongate/read-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedOperations } from '../src/indexed/index.js';

const SET = 'aa'.repeat(32);
const key = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const adnl = (n: number) => (n + 0x10).toString(16).padStart(2, '0').repeat(32);
const holder = (n: number) => `-1:${(n + 0x20).toString(16).padStart(2, '0').repeat(32).toUpperCase()}`;
const REWARD = `-1:${'EE'.repeat(32)}`;

describe('validator complaints', () => {
  let store: Store;
  let dir: string;
  const databaseUrl = process.env.DATABASE_URL;
  const schema = `complaints_${process.pid}_${Date.now().toString(36)}`;
  const ctx = { network: 'mainnet' as const, requestId: 't', startedAt: 0 };
  let ops: ReturnType<typeof indexedOperations>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tongate-complaints-'));
    store = await openIndexStore(databaseUrl ? { databaseUrl, schema } : { dataDir: dir });
    await store.migrate();
    // The validators domain's tables are in the network's schema beside the store's (openIndexStore migrated them).
    const db = withDomainTables<ValidatorTables>(store.chain('mainnet'));
    ops = indexedOperations({ db, network: 'mainnet' });
    await db
      .insertInto('validator_cycles')
      .values({
        cycle_start: 1000,
        cycle_end: 2000,
        vset_hash: SET,
        total: 3,
        main: 3,
        total_weight: '1000',
        validators_elected_for: 1000,
        elections_start_before: 500,
        elections_end_before: 100,
        stake_held_for: 100,
        max_validators: 100,
        max_main_validators: 100,
        min_validators: 1,
        min_stake_limit: '10',
        max_stake_limit: '1000',
        min_total_stake: '10',
        max_stake_factor: '196608',
      })
      .execute();
    await db
      .insertInto('validator_cycle_validators')
      .values(
        [500n, 300n, 200n].map((weight, i) => ({
          cycle_start: 1000,
          validator_index: i,
          validator_pubkey: key(i),
          adnl_addr: adnl(i),
          weight,
        })),
      )
      .execute();
    await db
      .insertInto('validator_rounds')
      .values({
        election_id: 1000,
        vset_hash: SET,
        unfreeze_at: 2100,
        stake_held: 100,
        total_stake: '600',
        bonuses: '60',
        min_stake: '100',
        max_stake: '300',
        unfrozen: false,
        fingerprint: 'x',
      })
      .execute();
    await db
      .insertInto('validator_round_stakes')
      .values(
        [300n, 200n, 100n].map((stake, i) => ({
          election_id: 1000,
          validator_pubkey: key(i),
          stake_holder_address: holder(i),
          weight: ['500', '300', '200'][i],
          stake,
          banned: i === 2,
          reward: (60n * stake) / 600n,
        })),
      )
      .execute();
    const complaint = (hash: string, createdAt: number, voters: number[], weightRemaining: bigint) => ({
      election_id: 1000,
      complaint_hash: hash,
      validator_pubkey: key(2),
      created_at: createdAt,
      severity: 2,
      reward_address: REWARD,
      paid: '1000000000',
      suggested_fine: '101000000000',
      suggested_fine_part: '0',
      description_boc: 'te6ccgEBAQEAAgAAAA==',
      vset_id: SET,
      weight_remaining: weightRemaining,
      voters: JSON.stringify(voters),
    });
    // The elector starts a complaint at two thirds of the set's weight (666) and subtracts each voter's weight.
    await db
      .insertInto('validator_complaints')
      .values([complaint('c1'.repeat(32), 1500, [0, 1], 666n - 800n), complaint('c2'.repeat(32), 1600, [1], 666n - 300n)])
      .execute();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schema);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const complaints = async (query: Record<string, unknown>) => {
    const r = (await ops.getValidatorComplaints({ query, ctx } as never)) as {
      status: number;
      body: { complaints: any[]; address_book: Record<string, unknown> };
    };
    expect(r.status).toBe(200);
    return r.body;
  };

  it('resolves voters, stake holder and ADNL address; passed past two thirds of the weight', async () => {
    const body = await complaints({});
    expect(body.complaints.map((c) => c.complaint_hash)).toEqual(['c2'.repeat(32), 'c1'.repeat(32)]);
    expect(body.complaints[1]).toEqual({
      complaint_hash: 'c1'.repeat(32),
      election_id: 1000,
      cycle_start: 1000,
      created_at: 1500,
      validator_pubkey: key(2),
      adnl_addr: adnl(2),
      stake_holder_address: holder(2),
      reward_address: REWARD,
      description_boc: 'te6ccgEBAQEAAgAAAA==',
      severity: 2,
      suggested_fine: '101000000000',
      suggested_fine_part: 0,
      paid: '1000000000',
      vset_id: SET,
      weight_remaining: '-134',
      approved_percent: 80,
      is_passed: true,
      voted_validators: [
        { validator_pubkey: key(0), adnl_addr: adnl(0), validator_index: 0, weight: '500' },
        { validator_pubkey: key(1), adnl_addr: adnl(1), validator_index: 1, weight: '300' },
      ],
    });
    expect(body.complaints[0]).toMatchObject({ approved_percent: 30, is_passed: false, weight_remaining: '366' });
    expect(Object.keys(body.address_book).sort()).toEqual([holder(2), REWARD].sort());
  });

  it('filters by holder, ADNL address, key, cycle, election and time', async () => {
    const hashes = async (q: Record<string, unknown>) => (await complaints(q)).complaints.map((c) => c.complaint_hash);
    const both = ['c2'.repeat(32), 'c1'.repeat(32)];
    expect(await hashes({ stake_holder_address: Address.parse(holder(2)) })).toEqual(both);
    expect(await hashes({ stake_holder_address: Address.parse(holder(0)) })).toEqual([]);
    expect(await hashes({ adnl_address: Buffer.from(adnl(2), 'hex') })).toEqual(both);
    expect(await hashes({ adnl_address: Buffer.from(adnl(1), 'hex') })).toEqual([]);
    expect(await hashes({ validator_pubkey: Buffer.from(key(2).toUpperCase(), 'hex') })).toEqual(both);
    expect(await hashes({ cycle_start: 1000 })).toEqual(both);
    expect(await hashes({ cycle_start: 999 })).toEqual([]);
    expect(await hashes({ election_id: 1000, start_utime: 1550 })).toEqual(['c2'.repeat(32)]);
    expect(await hashes({ end_utime: 1550 })).toEqual(['c1'.repeat(32)]);
  });

  it('cycles embed the complaints against each validator, with true stakes and the holder filter', async () => {
    const r = (await ops.getValidatorCycles({ query: { return_validators: true }, ctx } as never)) as {
      status: number;
      body: { cycles: any[] };
    };
    expect(r.status).toBe(200);
    const [cycle] = r.body.cycles;
    expect(cycle).toMatchObject({
      cycle_start: 1000,
      election_id: 1000,
      total_stake: '600',
      min_stake: '100',
      max_stake: '300',
      max_stake_factor: 196608,
    });
    expect(cycle.validators.map((v: any) => [v.validator_index, v.stake, v.stake_holder_address, v.complaints.length])).toEqual([
      [0, '300', holder(0), 0],
      [1, '200', holder(1), 0],
      [2, '100', holder(2), 2],
    ]);
    const mine = (await ops.getValidatorCycles({
      query: { return_validators: true, stake_holder_address: Address.parse(holder(1)) },
      ctx,
    } as never)) as { body: { cycles: any[] } };
    expect(mine.body.cycles[0].validators.map((v: any) => v.validator_index)).toEqual([1]);
  });
});
