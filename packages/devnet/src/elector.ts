import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadMessage,
  loadShardAccount,
  storeShardAccount,
  type DictionaryValue,
  type ShardAccount,
} from '@ton/core';
import type { Blockchain, SmartContract } from '@ton/sandbox';
import {
  decodeConfigParam15,
  decodeElectorData,
  decodeElectorMessage,
  decodeValidatorSet,
  loadConfigDictionary,
  type ElectionTiming,
  type StakeLimits,
  type ValidatorCounts,
} from '@tongate/contracts';
import { electorCodeBoc } from './contracts/elector-code.js';
import type { DevnetExecutor } from './executor.js';
import type { BlockchainControl, SandboxInternals } from './fast/index.js';
import { configPatchCell } from './config-patch.js';
import { RawBoc } from './raw-boc.js';
import { transactionSummary, type AppliedTransaction } from './runner.js';

/**
 * The devnet's elector and its stand-in for the config contract.
 *
 * The elector is the recorded mainnet code at the mainnet address (config param 1) with fresh devnet data; the block
 * producer runs its tick transaction every round, so it announces, conducts and cleans up elections and unfreezes
 * stakes by mainnet's own rules. The config contract's code is not among the recordings, so the devnet plays its part:
 * the validator set the elector sends to `-1:5555…` (config param 0) becomes param 36, and at its `utime_since` the
 * devnet rotates 34 → 32 and 36 → 34, as the config contract and the validators do on a real chain. Election timing
 * (param 15) is shortened so that a whole cycle takes minutes.
 */

export const ELECTOR_ADDRESS = new Address(-1, Buffer.alloc(32, 0x33));
export const CONFIG_ADDRESS = new Address(-1, Buffer.alloc(32, 0x55));

/**
 * Param 15 on the devnet for a cycle of `electedFor` seconds: elections open half a cycle before the set starts and
 * close a sixth before it; stakes stay frozen a sixth of a cycle after the set's end.
 */
export function devnetElectionTiming(electedFor: number): ElectionTiming {
  if (!Number.isInteger(electedFor) || electedFor < 12) throw new Error('a devnet validation cycle lasts at least 12 s');
  const sixth = Math.floor(electedFor / 6);
  return Object.freeze({
    validatorsElectedFor: electedFor,
    electionsStartBefore: Math.floor(electedFor / 2),
    electionsEndBefore: sixth,
    stakeHeldFor: sixth,
  });
}

/** The default: a set validates 2 minutes, elections open 1 minute before it starts and close 20 s before. */
export const DEVNET_ELECTION_TIMING = devnetElectionTiming(120);

const TON = 1_000_000_000n;

/** Param 17 on the devnet: stakes from 10 000 TON, so a devnet election needs no mainnet-sized funds. */
export const DEVNET_STAKE_LIMITS: StakeLimits = Object.freeze({
  minStake: 10_000n * TON,
  maxStake: 10_000_000n * TON,
  minTotalStake: 10_000n * TON,
  maxStakeFactor: 3 * 65536,
});

/** Param 16 on the devnet: one elected validator is enough (mainnet needs 75). */
export const DEVNET_VALIDATOR_COUNTS: ValidatorCounts = Object.freeze({ maxValidators: 100, maxMainValidators: 100, minValidators: 1 });

/** What the elector keeps of a stake message whose query_id asks for a confirmation (it pays the confirmation). */
export const STAKE_MESSAGE_FEE = TON;

/** Balance the elector starts with (it owns no stakes yet; the rest of its balance is what stake holders sent). */
const ELECTOR_GENESIS_BALANCE = 1_000n * TON;

export interface GenesisValidator {
  publicKey: Buffer;
  adnlAddr: Buffer;
  weight: bigint;
}

/** `validator_addr#73 public_key:(ed25519_pubkey#8e81278a pubkey:bits256) weight:uint64 adnl_addr:bits256`. */
const VALIDATOR_DESCR: DictionaryValue<GenesisValidator> = {
  serialize: (v, b) =>
    b.storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(v.publicKey, 32).storeUint(v.weight, 64).storeBuffer(v.adnlAddr, 32),
  parse: () => {
    throw new Error('write-only');
  },
};

/** `validators_ext#12 utime_since utime_until total main total_weight list:(HashmapE 16 ValidatorDescr)`. */
export function validatorSetCell(utimeSince: number, utimeUntil: number, validators: GenesisValidator[], maxMain: number): Cell {
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), VALIDATOR_DESCR);
  validators.forEach((v, i) => list.set(i, v));
  return beginCell()
    .storeUint(0x12, 8)
    .storeUint(utimeSince, 32)
    .storeUint(utimeUntil, 32)
    .storeUint(validators.length, 16)
    .storeUint(Math.min(validators.length, maxMain), 16)
    .storeUint(
      validators.reduce((s, v) => s + v.weight, 0n),
      64,
    )
    .storeDict(list)
    .endCell();
}

/**
 * Election params of a new devnet's config: 15, 16 and 17 as above, 34 = the genesis set (the block signer alone,
 * from `genUtime` for one elected period), no 32 or 36.
 */
export function setElectionParams(
  config: Dictionary<number, Cell>,
  opts: { genUtime: number; timing: ElectionTiming; validator: GenesisValidator },
): void {
  const { timing, genUtime } = opts;
  config.set(
    15,
    beginCell()
      .storeUint(timing.validatorsElectedFor, 32)
      .storeUint(timing.electionsStartBefore, 32)
      .storeUint(timing.electionsEndBefore, 32)
      .storeUint(timing.stakeHeldFor, 32)
      .endCell(),
  );
  const counts = DEVNET_VALIDATOR_COUNTS;
  config.set(
    16,
    beginCell().storeUint(counts.maxValidators, 16).storeUint(counts.maxMainValidators, 16).storeUint(counts.minValidators, 16).endCell(),
  );
  const limits = DEVNET_STAKE_LIMITS;
  config.set(
    17,
    beginCell()
      .storeCoins(limits.minStake)
      .storeCoins(limits.maxStake)
      .storeCoins(limits.minTotalStake)
      .storeUint(limits.maxStakeFactor, 32)
      .endCell(),
  );
  config.set(34, validatorSetCell(genUtime, genUtime + timing.validatorsElectedFor, [opts.validator], counts.maxMainValidators));
  config.delete(32);
  config.delete(36);
}

/**
 * The elector account at genesis: the mainnet code, a tick-tock special account (tick), and empty devnet data
 * (`elect:nothing credits:{} past_elections:{} grams:0 active_id:0 active_hash`) whose active set is the genesis set.
 */
export function genesisElectorAccount(genUtime: number, activeSetHash: Buffer): ShardAccount {
  const data = beginCell()
    .storeBit(false)
    .storeDict(null)
    .storeDict(null)
    .storeCoins(0n)
    .storeUint(0, 32)
    .storeBuffer(activeSetHash, 32)
    .endCell();
  return {
    account: {
      addr: ELECTOR_ADDRESS,
      storage: {
        lastTransLt: 0n,
        balance: { coins: ELECTOR_GENESIS_BALANCE },
        state: { type: 'active', state: { code: Cell.fromBase64(electorCodeBoc), data, special: { tick: true, tock: false } } },
      },
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: genUtime, duePayment: null, storageExtra: null },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
}

/** An idle elector is ticked at least this often, whatever nextWake says. */
const MAX_IDLE_SKIP_SECONDS = 10;

/** A masterchain account id as the 256-bit integer config params 0 and 1 hold. */
function paramAddress(config: Dictionary<number, Cell>, id: number): Buffer | null {
  const cell = config.get(id);
  return cell ? cell.beginParse().loadBuffer(32) : null;
}

export interface ElectorRound {
  /** The tick transaction, when it changed anything (an idle tick is not recorded, like an empty block). */
  transaction: AppliedTransaction | null;
  /** The validator-set params (32, 34, 36) as a config patch, when the round changed them. */
  configPatch: Cell | null;
}

/** The params the devnet's config stand-in changes. */
const VALIDATOR_SET_PARAMS = [32, 34, 36];

/**
 * Runs the elector's tick and plays the config contract, once per round inside the producer's queue. Absent on a
 * chain without an elector (a devnet recorded before it had one). The devnet is the only writer of its config, so
 * the driver keeps it decoded rather than re-reading the sandbox's copy (150 KB of base64) every round.
 */
export class ElectorDriver {
  private config: Dictionary<number, Cell>;
  /** Bumped whenever the driver changes the config. */
  private configVersion = 0;
  /**
   * After a tick that did nothing: the elector state and config it saw, and the earliest time the elector's own
   * rules could act on them (see nextWake). Until then, with the same state and config, a tick would do nothing
   * again and is skipped: an idle devnet's rounds stay as cheap as without an elector.
   */
  private idle: { account: string; configVersion: number; wakeAt: number; ranAt: number } | null = null;

  private constructor(
    private readonly bc: Blockchain,
    private readonly control: BlockchainControl,
    private readonly executor: DevnetExecutor,
    private readonly internals: SandboxInternals | null,
    private readonly logger?: { info(obj: object, msg?: string): void },
  ) {
    this.config = loadConfigDictionary(bc.config);
  }

  /** A driver when the chain has the elector the config names (param 1) at the devnet's elector address. */
  static async attach(parts: {
    bc: Blockchain;
    control: BlockchainControl;
    executor: DevnetExecutor;
    internals: SandboxInternals | null;
    logger?: { info(obj: object, msg?: string): void };
  }): Promise<ElectorDriver | null> {
    const { bc } = parts;
    if (!paramAddress(loadConfigDictionary(bc.config), 1)?.equals(ELECTOR_ADDRESS.hash)) return null;
    const elector = await bc.getContract(ELECTOR_ADDRESS);
    if (elector.accountState?.type !== 'active') return null;
    return new ElectorDriver(bc, parts.control, parts.executor, parts.internals, parts.logger);
  }

  async round(now: number): Promise<ElectorRound> {
    let changed = this.rotate(now);
    const tick = await this.tick(now);
    if (tick?.proposed) {
      this.config.set(36, tick.proposed);
      changed = true;
    }
    if (!changed) return { transaction: tick?.applied ?? null, configPatch: null };
    this.bc.setConfig(beginCell().storeDictDirect(this.config).endCell());
    this.configVersion++;
    const patch = configPatchCell(new Map(VALIDATOR_SET_PARAMS.map((id) => [id, this.config.get(id) ?? null])));
    return { transaction: tick?.applied ?? null, configPatch: patch };
  }

  /** Installs the next set (param 36) once its time has come; true when the config changed. */
  private rotate(now: number): boolean {
    const next = this.config.get(36);
    if (!next) return false;
    const { utimeSince } = decodeValidatorSet(next);
    if (utimeSince > now) return false;
    const current = this.config.get(34);
    if (current) this.config.set(32, current);
    this.config.set(34, next);
    this.config.delete(36);
    // The elector reads the new set in this round's tick.
    this.bc.setConfig(beginCell().storeDictDirect(this.config).endCell());
    this.configVersion++;
    this.logger?.info({ utimeSince }, 'devnet: new validator set installed');
    return true;
  }

  /** The elector's tick; its proposal to the config contract, if it made one. Null when the tick did nothing. */
  private async tick(now: number): Promise<{ applied: AppliedTransaction; proposed: Cell | null } | null> {
    const contract = await this.bc.getContract(ELECTOR_ADDRESS);
    const current = this.internals?.contract(contract)._account ?? null;
    const idle = this.idle;
    if (
      idle &&
      current === idle.account &&
      idle.configVersion === this.configVersion &&
      now < idle.wakeAt &&
      now - idle.ranAt < MAX_IDLE_SKIP_SECONDS
    )
      return null;
    await this.control.setLt(this.bc.lt + 1_000_000n);
    const ran = await this.runTick(contract, now);
    if (!ran) return null;
    const { boc, shardAccount, before } = ran;
    const tx = transactionSummary(boc, shardAccount);
    const dataBefore = electorData(before);
    if (tx.outMessages.length === 0 && dataBefore !== null && dataBefore.equals(electorData(shardAccount) ?? Buffer.alloc(0))) {
      // Nothing happened: the state stays as it was, so an idle devnet does not grow by an elector snapshot a round.
      this.idle =
        current === null
          ? null
          : { account: current, configVersion: this.configVersion, wakeAt: this.nextWake(dataBefore, now), ranAt: now };
      return null;
    }
    this.idle = null;
    this.commit(contract, shardAccount, tx.now);
    const configAddress = paramAddress(this.config, 0);
    let proposed: Cell | null = null;
    for (const cell of tx.outMessages) {
      // The elector's tick only ever writes to the config contract: the set it elected (queried by election id).
      const out = loadMessage(cell.beginParse());
      if (out.info.type !== 'internal' || !configAddress || out.info.dest.workChain !== -1 || !out.info.dest.hash.equals(configAddress))
        continue;
      const message = decodeElectorMessage(out.body);
      if (message?.type !== 'set_next_validator_set') continue;
      try {
        const set = decodeValidatorSet(message.validatorSet);
        if (set.utimeSince < set.utimeUntil && set.validators.length > 0) proposed = message.validatorSet;
      } catch (e) {
        this.logger?.info({ err: String(e) }, 'devnet: the elector proposed an unreadable validator set');
      }
    }
    return { applied: { address: ELECTOR_ADDRESS, lt: tx.lt, hash: tx.hash, boc }, proposed };
  }

  /**
   * The earliest time the elector could act with this state and the current config, by its tick's rules: conduct
   * the open election at elect_close, unfreeze a past round at its unfreeze_at, announce the next election
   * elections_start_before ahead of the current set's end. A state change (a message) or a config change wakes it
   * sooner; MAX_IDLE_SKIP_SECONDS bounds the skip in case the elector has a rule this does not know.
   */
  private nextWake(data: Buffer, now: number): number {
    let state;
    try {
      state = decodeElectorData(Cell.fromBoc(data)[0]);
    } catch {
      return 0;
    }
    const times: number[] = [];
    if (state.election && !state.election.finished) times.push(state.election.electClose);
    for (const p of state.pastElections) if (p.electionId !== state.activeId) times.push(p.unfreezeAt);
    const current = this.config.get(34);
    const timing = this.config.get(15);
    if (!state.election && current && timing)
      times.push(decodeValidatorSet(current).utimeUntil - decodeConfigParam15(timing).electionsStartBefore);
    // A moment already past did not make the tick act (it was idle): the elector waits for something else there (an
    // election short of stake waits for stakes), which a state change brings.
    const ahead = times.filter((t) => t > now);
    return ahead.length > 0 ? Math.min(...ahead) : Infinity;
  }

  /** Runs the tick on the elector's live state without keeping the result yet (an idle tick is dropped). */
  private async runTick(contract: SmartContract, now: number): Promise<{ boc: Buffer; shardAccount: string; before: string } | null> {
    const bc = this.bc;
    if (this.internals && this.executor.canRunDirect) {
      const before = this.internals.contract(contract)._account;
      const res = await this.executor
        .runTransactionBocRetrying({
          config: bc.configBase64,
          libs: bc.libs ?? null,
          verbosity: 'short',
          shardAccount: before,
          message: '',
          tickTock: 'tick',
          now,
          lt: bc.lt,
          randomSeed: bc.random ?? Buffer.alloc(32),
          ignoreChksig: false,
          debugEnabled: false,
          prevBlocksInfo: bc.prevBlocks,
        })
        .catch((e: unknown) => ({ result: { success: false as const, error: String(e) } }));
      if (!res.result.success) {
        this.logger?.info({ err: res.result.error }, 'devnet: elector tick failed');
        return null;
      }
      return { boc: Buffer.from(res.result.transaction, 'base64'), shardAccount: res.result.shardAccount, before };
    }
    // The public API: the sandbox runs and keeps it; an idle result is undone by restoring the previous state.
    const before = contract.account;
    try {
      const tx = await contract.runTickTock('tick', { now });
      const shardAccount = beginCell().store(storeShardAccount(contract.account)).endCell().toBoc().toString('base64');
      await this.bc.setShardAccount(ELECTOR_ADDRESS, before);
      return {
        boc: tx.raw.toBoc(),
        shardAccount,
        before: beginCell().store(storeShardAccount(before)).endCell().toBoc().toString('base64'),
      };
    } catch (e) {
      this.logger?.info({ err: String(e).split('\n')[0] }, 'devnet: elector tick failed');
      await this.bc.setShardAccount(ELECTOR_ADDRESS, before);
      return null;
    }
  }

  private commit(contract: SmartContract, shardAccount: string, txNow: number): void {
    if (this.internals) {
      const c = this.internals.contract(contract);
      c._account = shardAccount;
      c.parsedAccount = undefined;
      c.lastTxTime = txNow;
    } else {
      contract.account = loadShardAccount(Cell.fromBase64(shardAccount).beginParse());
    }
  }
}

/**
 * The elector's data in a ShardAccount BOC (base64), as bytes: the last reference of the Account cell is the
 * StateInit's data (code before it; the elector has no extra currencies nor libraries). Read in place: decoding the
 * whole elector with @ton/core twice a round would cost more than its tick.
 */
function electorData(shardAccount: string): Buffer | null {
  const bag = RawBoc.parse(Buffer.from(shardAccount, 'base64'));
  const account = bag?.refs[bag.root][0];
  const data = account === undefined ? undefined : bag!.refs[account].at(-1);
  return data === undefined ? null : bag!.toBoc(data);
}
