/**
 * writeMcBlock: the block's first statement moves the cursor from the previous block only, so a block out of order
 * (a gap, a repeat, a second writer) is refused whole; written blocks hold each stored wire form as storedWire builds
 * it, with the states of earlier blocks read in that same statement. On PGlite, and on PostgreSQL when DATABASE_URL
 * is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { dropSchema, type Store } from '@tongate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectChain, readCursor, writeMcBlock, type McBlockBatch } from '../src/index.js';
import { openIndexStore, selectedState, storedWire, type WireStateRow } from '@tongate/read-model';

const databaseUrl = process.env.DATABASE_URL;
const backends = [
  { name: 'pglite', url: undefined as string | undefined },
  ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : []),
];
const batches: McBlockBatch[] = [];

beforeAll(async () => {
  // Blocks where the same wallet sends again and again: each block's wire forms name states of earlier blocks.
  const devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  try {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    for (let block = 0; block < 4; block++) {
      const messages = [0, 1].map((i) =>
        internal({
          to: new Address(0, Buffer.alloc(32, block * 2 + i + 1)),
          value: 10_000_000n,
          bounce: false,
          body: `writer\t${block}\\${i}\n`,
        }),
      );
      await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, messages));
      await devnet.produceBlock();
    }
    batches.push(...(await collectChain(devnet)));
  } finally {
    await devnet.close();
  }
}, 120_000);

describe.each(backends)('writeMcBlock on $name', ({ name, url }) => {
  const schema = `writer_${process.pid}_${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-writer-'));
  let store: Store;
  beforeAll(async () => {
    store = await openIndexStore({ databaseUrl: url, dataDir, schema: url ? schema : undefined });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a block that does not follow the cursor, and writes nothing of it', async () => {
    const db = store.chain('testnet');
    await writeMcBlock(db, batches[0]!);
    await writeMcBlock(db, batches[1]!);
    await expect(writeMcBlock(db, batches[3]!)).rejects.toThrow('indexer cursor is at 1, cannot write masterchain block 3');
    await expect(writeMcBlock(db, batches[1]!)).rejects.toThrow('indexer cursor is at 1, cannot write masterchain block 1');
    expect(await readCursor(db)).toMatchObject({ mcSeqno: 1 });
    const seqnos = await db.selectFrom('blocks').select('seqno').where('workchain', '=', -1).orderBy('seqno').execute();
    expect(seqnos.map((r) => r.seqno)).toEqual([0, 1]);
  });

  it('stores each transaction with the wire form of its rows and of the states it names, earlier blocks included', async () => {
    const db = store.chain('testnet');
    for (const batch of batches.slice(2)) await writeMcBlock(db, batch);
    expect(await readCursor(db)).toMatchObject({ mcSeqno: batches.length - 1 });
    // Every recorded state, as the writer had it when each block was written (a state is recorded by its own block).
    const states = new Map<string, WireStateRow>();
    const expected = new Map<string, string>();
    let fromEarlier = 0;
    for (const batch of batches) {
      const own = new Set(batch.accountStates.map((s) => s.hash));
      for (const s of batch.accountStates) states.set(s.hash, selectedState(s));
      const contents = new Map(batch.contents.map((c) => [c.hash, c.body]));
      for (const tx of batch.transactions) {
        if (!own.has(tx.account_state_hash_before) && states.has(tx.account_state_hash_before)) fromEarlier++;
        expected.set(
          tx.hash,
          storedWire(
            tx,
            batch.messages.filter((m) => m.tx_hash === tx.hash),
            contents,
            states,
          ).wire,
        );
      }
    }
    expect(fromEarlier).toBeGreaterThan(0); // the wallet's state before comes from an earlier block
    const rows = await db.selectFrom('transactions').select(['hash', 'wire']).execute();
    expect(rows.length).toBe(expected.size);
    for (const row of rows) expect(row.wire, row.hash).toBe(expected.get(row.hash));
    // The comments with a tab, a backslash and a newline came through the copy as they were.
    expect(rows.some((r) => r.wire?.includes('"comment":"writer\\t1\\\\0\\n"'))).toBe(true);
  });
});
