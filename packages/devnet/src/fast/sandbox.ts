import type { Blockchain, BlockchainTransaction, BlockId, LogsVerbosity, PrevBlocksInfo, SmartContract } from '@ton/sandbox';
import { fastPathApplies, type SeamOptions } from './version.js';

/** SmartContract's private state as @ton/sandbox 0.41.0 keeps it (see SmartContract.runCommon). */
export interface ContractInternals {
  _account: string;
  parsedAccount: unknown;
  lastTxTime: number;
  readonly verbosity: LogsVerbosity;
  readonly debug: boolean;
}

/**
 * What the devnet needs from a sandbox Blockchain beyond its public API: set the logical time, take the
 * transactions it recorded. `fast` tells which implementation is in use: the protected fields of @ton/sandbox
 * 0.41.0, or the public snapshot()/loadFrom() (slower: they copy every contract, but need nothing private).
 */
export interface BlockchainControl {
  readonly fast: boolean;
  /** Sets the logical time the next transaction starts after (rounds advance it so block lt ranges never overlap). */
  setLt(lt: bigint): Promise<void>;
  /** The transactions the sandbox ran since the last call; empties its list, which would otherwise grow forever. */
  takeTransactions(): BlockchainTransaction[];
}

/** The private parts of @ton/sandbox 0.41.0 the direct message runner uses (see runner.ts). */
export interface SandboxInternals {
  increaseLt(): void;
  contract(sc: SmartContract): ContractInternals;
}

interface BlockchainFields {
  currentLt: bigint;
  transactions: BlockchainTransaction[];
  increaseLt?: () => void;
}

export function blockchainControl(bc: Blockchain, opts: SeamOptions = {}): BlockchainControl {
  const fields = bc as unknown as BlockchainFields;
  if (fastPathApplies('@ton/sandbox', opts) && typeof fields.currentLt === 'bigint' && Array.isArray(fields.transactions)) {
    return {
      fast: true,
      async setLt(lt) {
        fields.currentLt = lt;
      },
      takeTransactions() {
        const txs = fields.transactions;
        fields.transactions = [];
        return txs;
      },
    };
  }
  // Public API only: the snapshot carries the lt and the recorded transactions; loadFrom sets both.
  let taken = 0;
  return {
    fast: false,
    async setLt(lt) {
      await bc.loadFrom({ ...bc.snapshot(), lt, transactions: [] });
      taken = 0;
    },
    takeTransactions() {
      const all = bc.snapshot().transactions;
      const fresh = all.slice(taken);
      taken = all.length;
      return fresh;
    },
  };
}

/** The sandbox internals the direct runner needs, or null when the installed sandbox is not the one they match. */
export async function sandboxInternals(
  bc: Blockchain,
  probe: Parameters<Blockchain['getContract']>[0],
  opts: SeamOptions = {},
): Promise<SandboxInternals | null> {
  if (!fastPathApplies('@ton/sandbox', opts)) return null;
  const fields = bc as unknown as BlockchainFields;
  if (typeof fields.increaseLt !== 'function') return null;
  const sc = (await bc.getContract(probe)) as unknown as Partial<ContractInternals>;
  if (typeof sc._account !== 'string' || !('parsedAccount' in sc) || typeof sc.lastTxTime !== 'number') return null;
  return {
    increaseLt: () => fields.increaseLt!.call(bc),
    contract: (contract) => contract as unknown as ContractInternals,
  };
}

/**
 * The sandbox deep-copies PREVBLOCKS on every read (once per transaction). The devnet replaces the value once per
 * round and never mutates it, so this hands out one frozen object instead, which also lets DevnetExecutor
 * serialize it once per round. It replaces the sandbox's accessor on the instance, which its own code reads
 * through in 0.41.0; on another version the stock accessor stays. Returns whether it was installed.
 */
export function shareFrozenPrevBlocks(bc: Blockchain, opts: SeamOptions = {}): boolean {
  if (!fastPathApplies('@ton/sandbox', opts)) return false;
  let current: PrevBlocksInfo | undefined;
  Object.defineProperty(bc, 'prevBlocks', {
    configurable: true,
    get: () => current,
    set: (value: PrevBlocksInfo | undefined) => {
      current =
        value === undefined ? undefined : Object.freeze({ ...value, lastMcBlocks: Object.freeze([...value.lastMcBlocks]) as BlockId[] });
    },
  });
  return true;
}
