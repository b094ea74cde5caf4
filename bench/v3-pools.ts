/**
 * bench:v3, nominator pools: `nominator_pool_events` filled inside PostgreSQL (generate_series, no round trip per
 * row) to `events` rows over `POOLS` pools of `NOMINATORS` nominators each, for the p99 of
 * `/staking/nominatorPools/nominatorEvents` (a pool's newest page, and one nominator's) at volume.
 */
import { sql, type Store } from '@tongate/store';
import { filled, recordFilled } from './v3-fill.js';

export const POOLS = 100;
export const NOMINATORS = 40;

const poolAddress = (i: number) => `-1:${i.toString(16).padStart(64, '0').toUpperCase()}`;
const nominatorAddress = (i: number) => `0:${(i + 1_000_000).toString(16).padStart(64, '0').toUpperCase()}`;

export async function fillNominatorEvents(
  store: Store,
  events: number,
  log: (msg: string) => void,
): Promise<{ pool: string; nominator: string; seconds: number }> {
  const db = store.chain('testnet');
  const schema = sql.id(store.chainSchema('testnet'));
  const step = 200_000;
  const started = performance.now();
  const params = `pools=${POOLS} nominators=${NOMINATORS}`;
  const before = await filled(store, 'nominator_events');
  if (before && before.params !== params)
    throw new Error(`the kept volume holds nominator events filled with ${before.params}, not ${params}`);
  for (let from = before?.rows ?? 0; from < events; from += step) {
    const to = Math.min(events, from + step) - 1;
    // Event i: pool i % POOLS, nominator (i / POOLS) % NOMINATORS of that pool, one transaction per 10 s of the pool.
    await db.transaction().execute(async (trx) => {
      await sql`
        insert into ${schema}.nominator_pool_events
          (pool, nominator, type, utime, tx_hash, tx_lt, amount, balance_before, balance_after,
           pending_balance_before, pending_balance_after, withdraw_request_before, withdraw_request_after)
        select '-1:' || upper(lpad(to_hex(i % ${POOLS}), 64, '0')),
               '0:' || upper(lpad(to_hex(1000000 + (i / ${POOLS}) % ${NOMINATORS}), 64, '0')),
               (array['deposit', 'reward', 'withdrawal_request', 'pending_deposit_activation'])[1 + i % 4],
               1700000000 + (i / ${POOLS}) * 10, encode(sha256(('ptx' || i)::bytea), 'base64'), 2000000000000 + i * 10,
               1000000000 + i % 1000, 100000000000, 101000000000, 0, 0, false, false
        from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(trx);
      await recordFilled(store, 'nominator_events', to + 1, params, trx);
    });
    log(`volume: ${to + 1} nominator events`);
  }
  if (before && before.rows >= events) return { pool: poolAddress(7), nominator: nominatorAddress(3), seconds: 0 };
  await sql`analyze ${schema}.nominator_pool_events`.execute(db);
  return { pool: poolAddress(7), nominator: nominatorAddress(3), seconds: (performance.now() - started) / 1000 };
}
