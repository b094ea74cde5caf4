import type { SeedSummary } from '@tongate/devnet';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { createV2Handlers } from '../src/index.js';
import { type Operation, requestOperations } from './harness.js';

/** One seeded testnet devnet per test file, with the operations bound to it. */
export interface Fixture {
  devnet: Devnet;
  ops: Record<string, Operation>;
  seed: SeedSummary;
}

export async function seededDevnet(): Promise<Fixture> {
  const devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  const seed = await devnet.seed();
  await devnet.produceBlock();
  return { devnet, ops: requestOperations(createV2Handlers({ chain: devnet })), seed };
}
