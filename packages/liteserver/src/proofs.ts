import { Address, Cell, CellType, type Slice } from '@ton/core';
import { createHash } from 'node:crypto';
import { ChainError, LruCache, type BlockHeader, type BlockIdExt, type ShardBlockProof } from '@tongate/chain';
import { blockOfProof, parseBlockHeader } from './cells/block.js';
import { findBlockTransaction } from './cells/block-extra.js';
import { configParamOf } from './cells/config.js';
import { configRootOfKeyBlock, shardHashesOfBlock } from './cells/mc-block-extra.js';
import { configRootOfState, findOldMcBlock, mcStateExtraOf } from './cells/mc-state-extra.js';
import { findShardDescr } from './cells/shard-hashes.js';
import { findAccountLeaf, stateOfProof } from './cells/shard-state.js';
import {
  masterchainValidators,
  parseShuffleMcValidators,
  parseValidatorSet,
  signatureSetProblem,
  validatorSetHashShort,
  type SignatureSet,
  type ValidatorSet,
} from './validators.js';

/**
 * Proof checks of liteserver answers ("fast" in tonutils-go's terms, tonlib's account and shard proofs, its
 * BlockProofLink checks of back and forward links, and its BlockProofChain from a trusted block to the head): every
 * answer is checked against the block hashes it claims, through Merkle proofs, and the masterchain head through
 * validator signatures from a trusted key block. `unsafe` trusts the server.
 */
export type ProofPolicy = 'unsafe' | 'checking';

const REJECTED = 'liteserver proof rejected: ';
const reject = (what: string) => new ChainError('internal', REJECTED + what);

/** A proof check's refusal (the server lied or sent what cannot be checked), as opposed to a failure to answer. */
export const isProofRejection = (err: unknown): boolean => err instanceof ChainError && err.message.startsWith(REJECTED);

/** A proof that cannot even be read is rejected like a wrong one. */
function guarded<A extends unknown[], R>(check: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return check(...args);
    } catch (e) {
      if (e instanceof ChainError) throw e;
      throw reject(`malformed proof: ${(e as Error).message}`);
    }
  };
}

/** The roots of a proof BOC; one that does not parse (@ton/core checks Merkle proof hashes while parsing) is rejected. */
export function proofRoots(boc: Buffer): Cell[] {
  try {
    return boc.length > 0 ? Cell.fromBoc(boc) : [];
  } catch (e) {
    throw reject(`malformed proof: ${(e as Error).message}`);
  }
}

/** The one root of a single-root proof BOC. */
function oneRoot(boc: Buffer, what: string): Cell {
  const roots = proofRoots(boc);
  if (roots.length !== 1) throw reject(`${what} has ${roots.length} roots, expected 1`);
  return roots[0];
}

const sameBlock = (a: BlockIdExt, b: BlockIdExt) =>
  a.workchain === b.workchain &&
  a.shard === b.shard &&
  a.seqno === b.seqno &&
  a.rootHash.equals(b.rootHash) &&
  a.fileHash.equals(b.fileHash);
const named = (id: BlockIdExt) => `(${id.workchain},${BigInt.asUintN(64, id.shard).toString(16)},${id.seqno})`;

/** The hash a MerkleProof cell proves: its stored hash, which must also be what its content hashes to. */
function provenHash(root: Cell, what: string): Buffer {
  if (root.type !== CellType.MerkleProof) throw reject(`${what} is not a Merkle proof`);
  const stored = root.bits.subbuffer(8, 256)!;
  if (!root.refs[0].hash(0).equals(stored)) throw reject(`${what} does not hash to the hash it claims`);
  return stored;
}

/** A header proof must prove the block whose root hash the id names. */
export const checkBlockHeaderProof = guarded((id: BlockIdExt, root: Cell): void => {
  if (!provenHash(root, 'block header proof').equals(id.rootHash))
    throw reject(`header proof is for another block than (${id.workchain},${id.seqno})`);
});

/** new_hash of the block's state_update (MERKLE_UPDATE ShardState): the hash of the state after the block. */
function stateHashAfter(block: Cell): Buffer {
  const update = block.refs[2];
  if (!update || update.type !== CellType.MerkleUpdate) throw reject('block proof does not keep its state update');
  return update.bits.subbuffer(8 + 256, 256)!;
}

/** state_proof (block header) proves the block; config_proof proves the state after it. */
export const checkConfigProof = guarded((mcId: BlockIdExt, stateProof: Cell, configProof: Cell): void => {
  checkBlockHeaderProof(mcId, stateProof);
  const stateHash = stateHashAfter(blockOfProof(stateProof));
  if (!provenHash(configProof, 'config proof').equals(stateHash)) throw reject('config proof is not of the state after the block');
});

export interface AccountStateAnswer {
  mcId: BlockIdExt;
  shardBlock: BlockIdExt;
  shardProof: Buffer;
  /** The two roots of `proof`: shard block header, shard state. */
  proof: Cell[];
  state: Cell | null;
  account: Address;
}

/**
 * tonlib's AccountState::validate without the init-block chain: the shard block is in the masterchain block's shard
 * hashes (shard_proof), its header and state are proven, and the account cell sent is the one the state holds.
 */
export const checkAccountStateProof = guarded((a: AccountStateAnswer): void => {
  if (a.proof.length !== 2) throw reject(`account proof has ${a.proof.length} roots, expected 2`);
  const [header, state] = a.proof;
  checkBlockHeaderProof(a.shardBlock, header);
  if (!provenHash(state, 'shard state proof').equals(stateHashAfter(blockOfProof(header))))
    throw reject('account state proof is not of the state after the shard block');
  if (a.shardBlock.workchain !== -1) checkShardInMaster(a.mcId, a.shardBlock, a.shardProof);
  else if (!a.shardBlock.rootHash.equals(a.mcId.rootHash))
    throw reject('a masterchain account must be read at the masterchain block itself');
  const leaf = findAccountLeaf(stateOfProof(state), a.account.hash);
  if (!leaf) {
    if (a.state && a.state.bits.length > 1) throw reject('the server sent an account the state does not hold');
    return;
  }
  if (!a.state || !a.state.hash().equals(leaf.accountHash)) throw reject('the account sent is not the one the state holds');
});

/** shard_proof: the masterchain block's header and state, whose shard hashes list the shard block. */
export const checkShardInMaster = guarded((mcId: BlockIdExt, shardBlock: BlockIdExt, shardProof: Buffer): void => {
  const roots = proofRoots(shardProof);
  if (roots.length !== 2) throw reject(`shard proof has ${roots.length} roots, expected 2`);
  checkBlockHeaderProof(mcId, roots[0]);
  if (!provenHash(roots[1], 'masterchain state proof').equals(stateHashAfter(blockOfProof(roots[0]))))
    throw reject('shard proof state is not of the masterchain block');
  const listed = findShardDescr(shardHashesOfState(stateOfProof(roots[1])), shardBlock.workchain, shardBlock.shard);
  if (
    !listed ||
    listed.seqno !== shardBlock.seqno ||
    !listed.rootHash.equals(shardBlock.rootHash) ||
    !listed.fileHash.equals(shardBlock.fileHash)
  ) {
    throw reject('the shard block is not the one the masterchain block lists');
  }
});

/** The shard_hashes of a masterchain state (McStateExtra in `custom`), as a slice at its HashmapE bit. */
const shardHashesOfState = (state: Cell): Slice => mcStateExtraOf(state);

/** A ShardHashes HashmapE at its bit → the hash of its root cell, or null when empty. */
function shardHashesRoot(s: Slice): Buffer | null {
  return s.loadBit() ? s.loadRef().hash(0) : null;
}

/**
 * getAllShardsInfo (tonlib's check since ton 2024.04): `data`, the ShardHashes the answer lists, is the one the
 * masterchain block `mcId` holds. Current servers send one proof root, the block with the shard hashes of its
 * McBlockExtra; older ones two, the block and the state after it with the shard hashes of its McStateExtra. The
 * dictionaries are compared by their root's hash, which commits to every shard's top block.
 */
export const checkAllShardsProof = guarded((mcId: BlockIdExt, answerId: BlockIdExt, proof: Buffer, data: Buffer): void => {
  if (!sameBlock(mcId, answerId)) throw reject(`shard list is for ${named(answerId)}, not the block asked for ${named(mcId)}`);
  const roots = proofRoots(proof);
  if (roots.length !== 1 && roots.length !== 2) throw reject(`shard list proof has ${roots.length} roots, expected 1 or 2`);
  checkBlockHeaderProof(mcId, roots[0]);
  let proven: Slice;
  if (roots.length === 1) {
    proven = shardHashesOfBlock(blockOfProof(roots[0]));
  } else {
    if (!provenHash(roots[1], 'masterchain state proof').equals(stateHashAfter(blockOfProof(roots[0]))))
      throw reject('shard list proof state is not of the masterchain block');
    proven = shardHashesOfState(stateOfProof(roots[1]));
  }
  const dataRoots = Cell.fromBoc(data);
  if (dataRoots.length !== 1) throw reject(`shard list has ${dataRoots.length} roots, expected 1`);
  const listed = shardHashesRoot(dataRoots[0].beginParse());
  const held = shardHashesRoot(proven);
  if (listed === null ? held !== null : held === null || !listed.equals(held))
    throw reject(`the shard list is not the one masterchain block ${named(mcId)} holds`);
});

/** One transaction a liteserver names in a block: its account (32 bytes), lt and hash. */
export interface BlockTransactionId {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

/**
 * A block's transaction list (listBlockTransactions[Ext] with want_proof, getOneTransaction): the proof proves the
 * block, and every transaction named is in that block's account blocks under its account and lt, with its hash.
 */
export const checkBlockTransactionsProof = guarded((id: BlockIdExt, proof: Buffer, transactions: readonly BlockTransactionId[]): void => {
  if (transactions.length === 0) return;
  const root = oneRoot(proof, 'block transactions proof');
  checkBlockHeaderProof(id, root);
  const block = blockOfProof(root);
  for (const tx of transactions) {
    const proven = findBlockTransaction(block, tx.account, tx.lt);
    if (!proven || !proven.equals(tx.hash))
      throw reject(`transaction ${tx.lt} of ${tx.account.toString('hex')} is not the one the block holds`);
  }
});

/** One back link of getBlockProof (liteServer.blockLinkBack), as ShardBlockProof carries it. */
export type BackLink = ShardBlockProof['mcProof'][number];

/**
 * tonlib's BlockProofLink::validate for a back link: `proof` proves `from`'s header, `state_proof` the state after
 * `from`, whose prev_blocks (OldMcBlocksInfo) list `to` with its hashes; `dest_proof` proves `to`'s header, whose
 * key-block flag is the link's (the zero state, which has no header, may come without one). Returns `to`'s header.
 */
export const checkBackLink = guarded((link: BackLink): BlockHeader | null => {
  const { from, to } = link;
  if (from.workchain !== -1 || to.workchain !== -1) throw reject('a back link must join two masterchain blocks');
  if (to.seqno >= from.seqno) throw reject(`back link from ${named(from)} leads to ${named(to)}, which is not older`);
  const header = oneRoot(link.proof, 'back link source proof');
  checkBlockHeaderProof(from, header);
  const state = oneRoot(link.stateProof, 'back link state proof');
  if (!provenHash(state, 'back link state proof').equals(stateHashAfter(blockOfProof(header))))
    throw reject(`back link state proof is not of the state after ${named(from)}`);
  const listed = findOldMcBlock(stateOfProof(state), to.seqno);
  if (!listed || !sameBlock(listed.id, to))
    throw reject(`the state after ${named(from)} does not list ${named(to)} among its previous blocks`);
  if (to.seqno === 0 && link.destProof.length === 0) return null;
  const dest = oneRoot(link.destProof, 'back link destination proof');
  checkBlockHeaderProof(to, dest);
  const destHeader = parseBlockHeader(to, blockOfProof(dest));
  if (destHeader.isKeyBlock !== link.toKeyBlock)
    throw reject(`back link says ${named(to)} is${link.toKeyBlock ? '' : ' not'} a key block, its header says otherwise`);
  return destHeader;
});

/** Back links that lead, each from where the previous one ended, from masterchain block `from` to `to`. */
export const checkBackLinkChain = guarded((from: BlockIdExt, to: BlockIdExt, links: readonly BackLink[]): void => {
  let current = from;
  for (const [i, link] of links.entries()) {
    if (!sameBlock(link.from, current))
      throw reject(`back link ${i} starts at ${named(link.from)}, not at ${named(current)} where the chain stands`);
    checkBackLink(link);
    current = link.to;
  }
  if (!sameBlock(current, to)) throw reject(`back links from ${named(from)} end at ${named(current)}, not at ${named(to)}`);
});

/**
 * liteServer.shardBlockProof: each link's `proof` proves the block the chain stands at (first the masterchain block)
 * and shows the link's `id`: the masterchain block's shard hashes (McBlockExtra) list it as its shard's top block, a
 * shard block's header names it as a predecessor (after a split the parent's block, after a merge one of the two).
 * The last link must reach `target` (so the path runs through shards that hold it); there is none when `target` is
 * the masterchain block itself.
 */
export const checkShardBlockLinks = guarded((mcId: BlockIdExt, target: BlockIdExt, links: ShardBlockProof['links']): void => {
  if (mcId.workchain !== -1) throw reject(`shard block proof starts at ${named(mcId)}, not a masterchain block`);
  let current = mcId;
  for (const [i, link] of links.entries()) {
    const root = oneRoot(link.proof, `shard block link ${i} proof`);
    checkBlockHeaderProof(current, root);
    const block = blockOfProof(root);
    const next = link.id;
    const shown =
      current.workchain === -1
        ? findShardDescr(shardHashesOfBlock(block), next.workchain, next.shard)
        : parseBlockHeader(current, block).prevBlocks.find((p) => p.workchain === next.workchain && p.shard === next.shard);
    if (!shown || !sameBlock(shown, next)) throw reject(`shard block link ${i}: ${named(current)} does not lead to ${named(next)}`);
    current = next;
  }
  if (!sameBlock(current, target)) throw reject(`shard block proof ends at ${named(current)}, not at the requested ${named(target)}`);
});

/** One forward link of getBlockProof (liteServer.blockLinkForward): signatures of `to` by the validators `from` names. */
export interface ForwardLink {
  toKeyBlock: boolean;
  from: BlockIdExt;
  to: BlockIdExt;
  destProof: Buffer;
  /** Proof of `from`: its header and the config its McBlockExtra carries (a key block), or the zero state. */
  configProof: Buffer;
  /** The signature set of `to`: ordinary (catchain) or simplex (Catchain 2.0). */
  signatures: SignatureSet;
}

/**
 * tonlib's BlockProofLink::validate for a forward link: `config_proof` proves `from` (a key block's header and
 * McBlockExtra config, or the zero state itself), whose config param 34 is the validator set; `dest_proof` proves
 * `to`'s header (its key-block flag is the link's); the main validators of that set for `to`'s catchain session
 * (shuffled as param 28 says) hash to the header's gen_validator_list_hash_short; the signature set names that session
 * and list; and they signed `to` with more than 2/3 of their weight: its `ton.blockId` (an ordinary set), or the
 * finalize vote for its consensus candidate in the set's session and slot (a simplex set). Returns `to`'s header.
 */
export const checkForwardLink = guarded((link: ForwardLink): BlockHeader => {
  const { from, to } = link;
  if (from.workchain !== -1 || to.workchain !== -1) throw reject('a forward link must join two masterchain blocks');
  if (to.seqno <= from.seqno) throw reject(`forward link from ${named(from)} leads to ${named(to)}, which is not newer`);
  const { set, shuffle } = validatorsOfSource(from, link.configProof);
  const dest = oneRoot(link.destProof, 'forward link destination proof');
  checkBlockHeaderProof(to, dest);
  const header = parseBlockHeader(to, blockOfProof(dest));
  if (header.isKeyBlock !== link.toKeyBlock)
    throw reject(`forward link says ${named(to)} is${link.toKeyBlock ? '' : ' not'} a key block, its header says otherwise`);
  const nodes = masterchainValidators(set, shuffle, header.catchainSeqno);
  const hash = validatorSetHashShort(header.catchainSeqno, nodes);
  if (hash !== header.validatorListHashShort >>> 0) {
    throw reject(
      `the validators of ${named(from)} for ${named(to)} (catchain ${header.catchainSeqno}) hash to ${hash}, the block header names ${header.validatorListHashShort >>> 0}: another validator set`,
    );
  }
  const problem = signatureSetProblem(nodes, link.signatures, to, header.catchainSeqno, hash);
  if (problem) throw reject(`signatures of ${named(to)}: ${problem}`);
  return header;
});

/**
 * Every head after a key block comes with the same proof of that key block: what it proved (the validator set in
 * force, whether to shuffle) is kept by the proof's bytes and the block, so later links skip its parsing.
 */
const provenSources = new LruCache<string, { set: ValidatorSet; shuffle: boolean }>(64);

/** The validator set and shuffle flag `config_proof` proves `from` (a key block, or the zero state) to carry. */
function validatorsOfSource(from: BlockIdExt, configProof: Buffer): { set: ValidatorSet; shuffle: boolean } {
  const key = `${from.seqno}:${from.rootHash.toString('hex')}:${createHash('sha256').update(configProof).digest('hex')}`;
  const known = provenSources.get(key);
  if (known) return known;
  const source = oneRoot(configProof, 'forward link source proof');
  let config: Cell;
  // Seqno 0 is the zero state, a ShardStateUnsplit, on a real network; a devnet's block 0 is a key Block instead.
  if (from.seqno === 0 && !isBlockCell(stateOfProof(source))) {
    // The zero state: its root hash is the block id's.
    if (!provenHash(source, 'zero state proof').equals(from.rootHash))
      throw reject(`forward link source proof is not of the zero state ${named(from)}`);
    config = configRootOfState(stateOfProof(source));
  } else {
    checkBlockHeaderProof(from, source);
    const block = blockOfProof(source);
    if (!parseBlockHeader(from, block).isKeyBlock) throw reject(`forward link starts at ${named(from)}, which is not a key block`);
    config = configRootOfKeyBlock(block);
  }
  const vsetCell = configParamOf(config, 34);
  if (!vsetCell) throw reject(`the config of ${named(from)} has no current validator set (param 34)`);
  const proven = { set: parseValidatorSet(vsetCell), shuffle: parseShuffleMcValidators(configParamOf(config, 28)) };
  provenSources.set(key, proven);
  return proven;
}

/** Whether a (proven) cell is a Block (block#11ef55aa), as opposed to a state. */
function isBlockCell(cell: Cell): boolean {
  return !cell.isExotic && cell.bits.length >= 32 && cell.beginParse().preloadUint(32) === 0x11ef55aa;
}

export type ChainLink = ({ _: 'back' } & BackLink) | ({ _: 'forward' } & ForwardLink);

/**
 * tonlib's BlockProofChain::validate: links that lead, each from where the previous one ended, from `from` to `to`;
 * each checked as above. Returns the newest key block the chain proves (the next trusted start), if any, and the
 * gen_utime `to`'s proven header gives (null with no link, or when `to` is the zero state).
 */
export const checkBlockProofChain = guarded(
  (from: BlockIdExt, to: BlockIdExt, links: readonly ChainLink[]): { keyBlock: BlockIdExt | null; genUtime: number | null } => {
    let current = from;
    let keyBlock: BlockIdExt | null = null;
    let genUtime: number | null = null;
    for (const [i, link] of links.entries()) {
      if (!sameBlock(link.from, current))
        throw reject(`block proof link ${i} starts at ${named(link.from)}, not at ${named(current)} where the chain stands`);
      const header = link._ === 'forward' ? checkForwardLink(link) : checkBackLink(link);
      genUtime = header?.genUtime ?? null;
      if (link.toKeyBlock && (!keyBlock || link.to.seqno > keyBlock.seqno)) keyBlock = link.to;
      current = link.to;
    }
    if (!sameBlock(current, to)) throw reject(`block proof links from ${named(from)} end at ${named(current)}, not at ${named(to)}`);
    return { keyBlock, genUtime };
  },
);
