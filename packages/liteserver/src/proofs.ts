import { Address, Cell, CellType, type Slice } from '@ton/core';
import { ChainError, type BlockIdExt } from '@tongate/chain';
import { blockOfProof, findAccountLeaf, findBlockTransaction, findShardDescr, stateOfProof } from './tlb.js';

/**
 * Proof checks of liteserver answers ("fast" in tonutils-go's terms, tonlib's account and shard proofs): every
 * answer is checked against the block hashes it claims, through Merkle proofs, without a signature chain from the
 * config's init block (that is the next level, not built). `unsafe` trusts the server; it is the only mode that
 * works against the devnet liteserver, whose block ids are not cell hashes.
 */
export type ProofPolicy = 'unsafe' | 'checking';

const reject = (what: string) => new ChainError('internal', `liteserver proof rejected: ${what}`);

/** A proof that cannot even be read is rejected like a wrong one. */
function guarded<A extends unknown[]>(check: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      check(...args);
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

/** The hash a MerkleProof cell proves: its stored hash, which must also be what its content hashes to. */
function provenHash(root: Cell, what: string): Buffer {
  if (root.type !== CellType.MerkleProof) throw reject(`${what} is not a Merkle proof`);
  const stored = root.bits.subbuffer(8, 256)!;
  if (!root.refs[0].hash(0).equals(stored)) throw reject(`${what} does not hash to the hash it claims`);
  return stored;
}

/** A header proof must prove the block whose root hash the id names. */
export const checkBlockHeaderProof = guarded((id: BlockIdExt, root: Cell): void => {
  if (!provenHash(root, 'block header proof').equals(id.rootHash)) throw reject(`header proof is for another block than (${id.workchain},${id.seqno})`);
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
  if (!provenHash(state, 'shard state proof').equals(stateHashAfter(blockOfProof(header)))) throw reject('account state proof is not of the state after the shard block');
  if (a.shardBlock.workchain !== -1) checkShardInMaster(a.mcId, a.shardBlock, a.shardProof);
  else if (!a.shardBlock.rootHash.equals(a.mcId.rootHash)) throw reject('a masterchain account must be read at the masterchain block itself');
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
  if (!provenHash(roots[1], 'masterchain state proof').equals(stateHashAfter(blockOfProof(roots[0])))) throw reject('shard proof state is not of the masterchain block');
  const listed = findShardDescr(shardHashesOfState(stateOfProof(roots[1])), shardBlock.workchain, shardBlock.shard);
  if (!listed || listed.seqno !== shardBlock.seqno || !listed.rootHash.equals(shardBlock.rootHash) || !listed.fileHash.equals(shardBlock.fileHash)) {
    throw reject('the shard block is not the one the masterchain block lists');
  }
});

/** The shard_hashes of a masterchain state (McStateExtra in `custom`), as a slice at its HashmapE bit. */
function shardHashesOfState(state: Cell): Slice {
  const custom = state.refs[3];
  if (!custom) throw reject('masterchain state proof has no McStateExtra');
  const s = custom.beginParse();
  if (s.loadUint(16) !== 0xcc26) throw reject('not a McStateExtra');
  return s;
}

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
  const roots = proofRoots(proof);
  if (roots.length !== 1) throw reject(`block transactions proof has ${roots.length} roots, expected 1`);
  checkBlockHeaderProof(id, roots[0]);
  const block = blockOfProof(roots[0]);
  for (const tx of transactions) {
    const proven = findBlockTransaction(block, tx.account, tx.lt);
    if (!proven || !proven.equals(tx.hash)) throw reject(`transaction ${tx.lt} of ${tx.account.toString('hex')} is not the one the block holds`);
  }
});
