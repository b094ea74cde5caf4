import { beginCell, serializeTuple, type Address, type Cell, type TupleItem } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import { EXIT_CODE_NO_CODE, GET_METHOD_GAS_LIMIT, getMethodCall, getMethodResultOf, LruCache, type GetMethodResult } from '@tongate/chain';
import { emulatorCall } from './executor.js';
import type { ChainReader } from './reader.js';

const GET_METHOD_CACHE_ENTRIES = 4096;

/** Get-methods run on sealed account states in the sandbox's emulator, with results kept per block. */
export class GetMethods {
  /** Results by block, account snapshot, method and arguments (see run); shared, read-only. */
  private readonly cache = new LruCache<string, GetMethodResult>(GET_METHOD_CACHE_ENTRIES);

  constructor(
    private readonly bc: Blockchain,
    private readonly reader: ChainReader,
  ) {}

  async run(address: Address, method: string | number, stack: TupleItem[], atMcSeqno?: number): Promise<GetMethodResult> {
    // The method id, and the stack checked against what the emulator survives (shared with every backend).
    const methodId = getMethodCall(method, stack);
    const mc = this.reader.history.mcAt(atMcSeqno);
    const snapshot = this.reader.accountAt(address, mc.id.seqno);
    const sa = snapshot?.decoded.sa;
    const lastTransaction = snapshot?.decoded.state.lastTransaction ?? null;
    const state = sa?.account?.storage.state;
    if (!snapshot || !sa?.account || state?.type !== 'active' || !state.state.code) {
      return { exitCode: EXIT_CODE_NO_CODE, gasUsed: 0n, stack: [], block: mc.id, lastTransaction };
    }
    // Everything the emulator sees is fixed by the masterchain block and the account's state in it (code, data,
    // balance; time and seed from the block), so a result is reused for the same method and arguments: wallets poll
    // seqno and balances many times per block, and each run costs milliseconds.
    const key = `${mc.id.seqno}:${snapshot.blob.off}:${methodId}:${stack.length === 0 ? '' : serializeTuple(stack).hash().toString('base64')}`;
    const known = this.cache.get(key);
    if (known) return known;
    const code = state.state.code;
    const balance = sa.account.storage.balance.coins;
    const res = await emulatorCall(() =>
      this.bc.executor.runGetMethod({
        code,
        data: state.state.data ?? beginCell().endCell(),
        methodId,
        stack,
        config: this.bc.configBase64,
        verbosity: 'short',
        libs: this.reader.libs,
        address,
        unixTime: mc.genUtime,
        balance,
        randomSeed: mc.id.rootHash,
        gasLimit: GET_METHOD_GAS_LIMIT,
        debugEnabled: false,
        prevBlocksInfo: this.bc.prevBlocks,
      }),
    );
    const result = getMethodResultOf(res.output, mc.id, lastTransaction);
    this.cache.set(key, result);
    return result;
  }

  /** An account's data in the live (unsealed) state; null unless active. Call inside the chain queue. */
  async liveData(address: Address): Promise<Cell | null> {
    const state = (await this.bc.getContract(address)).account.account?.storage.state;
    return state?.type === 'active' ? (state.state.data ?? null) : null;
  }

  /** A wallet's seqno in the live (unsealed) state, which the seeder needs between blocks. Call inside the chain queue. */
  async liveSeqno(address: Address): Promise<number> {
    const sc = await this.bc.getContract(address);
    if (sc.accountState?.type !== 'active') return 0;
    const r = await this.bc.runGetMethod(address, 'seqno');
    return Number(r.stackReader.readBigNumber());
  }
}
