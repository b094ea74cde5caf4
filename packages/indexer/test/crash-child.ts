/**
 * Child process of crash.test.ts: indexes a durable devnet into a store. With KILL_AT=<seqno> it stops inside the
 * database transaction of that masterchain block (after every row of the block is written, just before the
 * cursor moves and the transaction commits), prints `MID <seqno>` and waits there to be killed with SIGKILL.
 */
import { createDevnet } from '@tongate/devnet';
import { openStore } from '@tongate/store';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { Indexer } from '../src/index.js';

const { DEVNET_DIR, STORE_DIR, DATABASE_URL, STORE_SCHEMA, KILL_AT } = process.env;
const killAt = KILL_AT ? Number(KILL_AT) : null;

/**
 * Stalls the query that moves the cursor to `killAt` after it ran, inside the block's open transaction: every row
 * of the block is written and nothing is committed when the parent kills the process.
 */
class StallAtCursor implements KyselyPlugin {
  private readonly stalled = new WeakSet<object>();
  constructor(private readonly seqno: number) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as unknown as { kind: string; into?: { table: { identifier: { name: string } } }; values?: { values?: { values?: unknown[] }[] } };
    const row = node.values?.values?.[0]?.values;
    if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'indexer_cursor' && row?.[1] === this.seqno) this.stalled.add(args.queryId);
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
const store = await openStore({ databaseUrl: DATABASE_URL || undefined, dataDir: STORE_DIR, schema: STORE_SCHEMA || undefined });
await store.migrate();
const db = killAt === null ? store.chain('testnet') : store.chain('testnet').withPlugin(new StallAtCursor(killAt));
const indexer = new Indexer({ chain: devnet, db, pollMs: 20 });
await indexer.start();
const head = (await devnet.getMasterchainInfo()).last.seqno;
await indexer.waitFor(head, 120_000);
process.stdout.write(`DONE ${head}\n`);
await indexer.stop();
await store.close();
await devnet.close();
