/**
 * Child process of crash.test.ts: indexes a durable devnet into a store. With KILL_AT=<seqno> it stops inside the
 * database transaction of that masterchain block (after the cursor moved and every chain row of the block is written,
 * the transactions last; before its derived rows and the commit), prints `MID <seqno>` and waits there to be killed
 * with SIGKILL.
 */
import { createDevnet } from '@tongate/devnet';
import { openIndexStore } from '@tongate/read-model';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { Indexer } from '../src/index.js';

const { DEVNET_DIR, STORE_DIR, DATABASE_URL, STORE_SCHEMA, KILL_AT } = process.env;
const killAt = KILL_AT ? Number(KILL_AT) : null;

/** Column of `mc_block_seqno` in the writer's copy of transactions (its COLUMN_TYPES order), an int. */
const MC_BLOCK_SEQNO_COLUMN = 7;

/** A field of the first row of COPY binary data: after the 19-byte header, the row's field count, then each field's length and bytes. */
function firstRowField(data: Buffer, index: number): Buffer | null {
  let pos = 19 + 2;
  for (let i = 0; i < index; i++) pos += 4 + Math.max(0, data.readInt32BE(pos));
  const length = data.readInt32BE(pos);
  return length < 0 ? null : data.subarray(pos + 4, pos + 4 + length);
}

/**
 * Stalls the copy of block `killAt`'s transactions after it ran, inside the block's open transaction: the chain rows
 * of the block are written and nothing is committed when the parent kills the process.
 */
class StallAfterTransactions implements KyselyPlugin {
  private readonly stalled = new WeakSet<object>();
  constructor(private readonly seqno: number) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as unknown as {
      kind: string;
      sqlFragments?: readonly string[];
      parameters?: readonly { kind: string; sqlFragments?: readonly string[]; value?: { data?: unknown } }[];
    };
    if (
      node.kind === 'RawNode' &&
      node.sqlFragments?.[0] === 'copy ' &&
      node.parameters?.[0]?.sqlFragments?.[0]?.endsWith('"transactions"')
    ) {
      const data = node.parameters.find((p) => Buffer.isBuffer(p.value?.data))?.value?.data as Buffer | undefined;
      const seqno = data && firstRowField(data, MC_BLOCK_SEQNO_COLUMN);
      if (seqno?.readInt32BE(0) === this.seqno) this.stalled.add(args.queryId);
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.stalled.has(args.queryId)) {
      process.stdout.write(`MID ${this.seqno}\n`);
      await new Promise(() => {});
    }
    return args.result;
  }
}

const devnet = await createDevnet({ network: 'testnet', dataDir: DEVNET_DIR!, blockIntervalMs: 0 });
const store = await openIndexStore({ databaseUrl: DATABASE_URL || undefined, dataDir: STORE_DIR, schema: STORE_SCHEMA || undefined });
await store.migrate();
const db = killAt === null ? store.chain('testnet') : store.chain('testnet').withPlugin(new StallAfterTransactions(killAt));
const indexer = new Indexer({ chain: devnet, db, pollMs: 20 });
await indexer.start();
const head = (await devnet.getMasterchainInfo()).last.seqno;
await indexer.waitFor(head, 120_000);
process.stdout.write(`DONE ${head}\n`);
await indexer.stop();
await store.close();
await devnet.close();
