/**
 * Where the milliseconds of one account-history page go (`transactions?account=…&limit=100`), stage by stage, over a
 * volume the v3 bench kept (BENCH_V3_SCHEMA):
 *
 *   DATABASE_URL=postgres://…/tongate_hist BENCH_V3_SCHEMA=bench_v3_1m npx tsx bench/v3-spans.ts
 *
 * Runs in-process against the store (no HTTP): the reply as the handler builds it (storedTransactionsReply: one SQL
 * statement for the page's stored wire forms and its address book; BENCH_V3_SPAN_PATH=joins for transactionsReply,
 * the path of rows without them), then JSON serialization where the path needs it; p50/p99 over ROUNDS
 * pages of different accounts. `EXPLAIN (ANALYZE, BUFFERS)` of the statement splits the first span further.
 */
import { openIndexStore, storedTransactionsReply, transactionsReply } from '@tongate/read-model';
import { round } from './lib.js';

const ROUNDS = Number(process.env.BENCH_V3_SPAN_ROUNDS ?? 300);
const ACCOUNTS = Number(process.env.BENCH_V3_ACCOUNTS ?? 10_000);
const databaseUrl = process.env.DATABASE_URL;
const schema = process.env.BENCH_V3_SCHEMA;
if (!databaseUrl || !schema) throw new Error('DATABASE_URL and BENCH_V3_SCHEMA (a volume kept by bench:v3) are needed');

const store = await openIndexStore({ databaseUrl, schema });
const db = store.chainReader('testnet');
/** BENCH_V3_SPAN_PATH=joins: the reply through the joins (rows without a stored wire form); by default the stored wire forms. */
const joins = process.env.BENCH_V3_SPAN_PATH === 'joins';
const spans: Record<string, number[]> = { reply: [], stringify: [], total: [] };
let bytes = 0;
for (let i = 0; i < ROUNDS + 20; i++) {
  const account = `0:${((i * 7919) % ACCOUNTS).toString(16).padStart(64, '0').toUpperCase()}`;
  const t0 = performance.now();
  const page = db
    .selectFrom('transactions')
    .selectAll()
    .where('account', 'in', [account])
    .orderBy('lt', 'desc')
    .orderBy('account', 'desc')
    .limit(100);
  // The stored path's reply is already the JSON text; the joins path's is an object still to serialize.
  const reply = joins
    ? await transactionsReply(db, page, { sort: 'desc', byTime: false }, true)
    : await storedTransactionsReply(db, page, { sort: 'desc', byTime: false }, true);
  const t2 = performance.now();
  const json = typeof reply === 'string' ? reply : JSON.stringify(reply);
  const t3 = performance.now();
  if (json === null) throw new Error(`${account}: a row without a current stored wire form`);
  bytes = json.length;
  if (i < 20) continue; // warm-up: JIT, plans, caches
  spans.reply!.push(t2 - t0);
  spans.stringify!.push(t3 - t2);
  spans.total!.push(t3 - t0);
}
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(s[Math.floor(s.length / 2)]!, 2), p99: round(s[Math.floor(s.length * 0.99)]!, 2) };
};
console.log(
  JSON.stringify(
    { rounds: ROUNDS, replyBytes: bytes, spansMs: Object.fromEntries(Object.entries(spans).map(([k, v]) => [k, stats(v)])) },
    null,
    2,
  ),
);
await store.close();
