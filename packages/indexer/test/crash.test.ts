/**
 * kill -9 in the middle of a block: a child process indexes a durable devnet and is killed (SIGKILL) while the
 * database transaction of one masterchain block is open, with all of that block's rows written. After a restart,
 * every table holds each row of the chain exactly once and the cursor continued from the block before the kill.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WHOLE_SHARD, transactionMessageCells } from '@tongate/chain';
import { createDevnet, signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { dropSchema, sql, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
// tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would orphan).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const databaseUrl = process.env.DATABASE_URL;
const dir = mkdtempSync(path.join(tmpdir(), 'tongate-crash-'));
const devnetDir = path.join(dir, 'devnet');

/** What the chain holds, counted from the devnet itself. */
interface ChainTotals {
  head: number;
  blocks: number;
  transactions: number;
  messageRows: number;
}
let totals: ChainTotals;

beforeAll(async () => {
  // A durable devnet with history: the seed, then blocks of faucet transfers with four messages each.
  const devnet = await createDevnet({ network: 'testnet', dataDir: devnetDir, blockIntervalMs: 0 });
  await devnet.seed();
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const signer = signerFromSeed(devnet.faucet.secretKey);
  let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  for (let block = 0; block < 12; block++) {
    const messages = [0, 1, 2, 3].map((i) =>
      internal({ to: new Address(0, Buffer.alloc(32, block * 4 + i + 1)), value: 10_000_000n, bounce: false, body: `crash ${block}/${i}` }),
    );
    await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, messages));
    await devnet.produceBlock();
  }
  const head = (await devnet.getMasterchainInfo()).last.seqno;
  totals = { head, blocks: 0, transactions: 0, messageRows: 0 };
  const seen = new Set<string>();
  for (let mc = 0; mc <= head; mc++) {
    const header = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: mc });
    for (const id of [header.id, ...header.shardBlocks!]) {
      const key = `${id.workchain}:${id.shard}:${id.seqno}`;
      if (seen.has(key)) continue; // a shard top can stay current across masterchain blocks
      seen.add(key);
      totals.blocks++;
      const page = await devnet.listBlockTransactionsExt(id, { count: 10_000 });
      for (const tx of page.transactions) {
        totals.transactions++;
        const cells = transactionMessageCells(tx.cell);
        totals.messageRows += (cells.inMsg ? 1 : 0) + cells.outMsgs.length;
      }
    }
  }
  await devnet.close();
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runChild(env: Record<string, string>): { child: ChildProcess; line: (prefix: string) => Promise<string> } {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.join(here, 'crash-child.ts')], {
    env: { ...process.env, DEVNET_DIR: devnetDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const line = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = out.split('\n').find((l) => l.startsWith(prefix));
        if (found) return resolve(found);
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(new Error(`child ended without '${prefix}': ${err.slice(-2000)}`));
        setTimeout(check, 20);
      };
      check();
    });
  return { child, line };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

const backends = [{ name: 'pglite', databaseUrl: '' }, ...(databaseUrl ? [{ name: 'postgres', databaseUrl }] : [])];

describe.each(backends)('indexer killed with SIGKILL mid-block, on $name', ({ name, databaseUrl: url }) => {
  const schema = `crash_${process.pid}_${name}`;
  const storeDir = path.join(dir, `store-${name}`);
  const env = { DATABASE_URL: url, STORE_DIR: storeDir, STORE_SCHEMA: url ? schema : '' };
  let store: Store | undefined;

  afterAll(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
  });

  it('resumes at the killed block, with every row exactly once', async () => {
    const killAt = Math.floor(totals.head / 2);
    const first = runChild({ ...env, KILL_AT: String(killAt) });
    expect(await first.line('MID ')).toBe(`MID ${killAt}`);
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = runChild(env);
    expect(await second.line('DONE ')).toBe(`DONE ${totals.head}`);
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);

    store = await openIndexStore({ databaseUrl: url || undefined, dataDir: storeDir, schema: url ? schema : undefined });
    const db = store.chain('testnet');
    const count = async (table: 'blocks' | 'transactions' | 'messages' | 'trace_transactions', distinct: string) => {
      const { rows } = await sql<{
        n: string;
        d: string;
      }>`select count(*) as n, count(distinct ${sql.raw(distinct)}) as d from ${sql.table(`${store!.chainSchema('testnet')}.${table}`)}`.execute(
        db,
      );
      return { n: Number(rows[0]!.n), distinct: Number(rows[0]!.d) };
    };
    expect(await count('transactions', 'hash')).toEqual({ n: totals.transactions, distinct: totals.transactions });
    expect(await count('messages', 'tx_hash || direction || msg_hash')).toEqual({ n: totals.messageRows, distinct: totals.messageRows });
    expect(await count('blocks', "workchain || ':' || shard || ':' || seqno")).toEqual({ n: totals.blocks, distinct: totals.blocks });
    // Derived rows (the traces derivation) commit with their block: every transaction in exactly one trace.
    expect(await count('trace_transactions', 'tx_hash')).toEqual({ n: totals.transactions, distinct: totals.transactions });
    const cursor = await db.selectFrom('indexer_cursor').selectAll().executeTakeFirstOrThrow();
    expect(cursor.mc_seqno).toBe(totals.head);
    const mcSeqnos = await db.selectFrom('blocks').select('seqno').where('workchain', '=', -1).orderBy('seqno').execute();
    expect(mcSeqnos.map((r) => r.seqno)).toEqual(Array.from({ length: totals.head + 1 }, (_, i) => i));
  }, 180_000);
});
