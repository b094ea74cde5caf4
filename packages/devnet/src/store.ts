import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ChainError, type BlockIdExt, type BlockRef } from '@tongate/chain';

/**
 * Durable history of a devnet: blocks, transactions and per-block account snapshots.
 *
 * Layout of `<dataDir>/<network>/`:
 *   blobs.bin     append-only bytes: transaction BOCs, ShardAccount BOCs, the config and library dictionaries.
 *                 Referenced by (offset, length); read back on demand, so they never have to sit in memory.
 *   journal.ndjson one JSON line per round (a basechain block + the masterchain block that references it): block
 *                 headers, their transactions' (account, lt, hash, blob ref), the accounts changed in the round with
 *                 their ShardAccount blob refs, the sandbox logical time after the round, changed libraries.
 * A round's blobs are written and fsynced before its journal line, which is fsynced too; on open, a torn last line
 * is cut off, so a crash loses at most the round being written. Without a dataDir the same structures live in memory.
 */

export interface BlobRef {
  off: number;
  len: number;
}

export interface StoredTx {
  workchain: number;
  account: Buffer;
  lt: bigint;
  hash: Buffer;
  blob: BlobRef;
}

export interface StoredBlock {
  id: BlockIdExt;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  prevBlocks: BlockIdExt[];
  shardBlocks: BlockIdExt[];
  masterchainRef?: BlockRef;
  /** The shard splits after this block (its header's before_split). */
  beforeSplit?: boolean;
  stateHash: Buffer;
  /** Ordered by (account, lt). */
  txs: StoredTx[];
}

export interface StoredAccount {
  workchain: number;
  account: Buffer;
  /** ShardAccount BOC. */
  blob: BlobRef;
}

/** A message between shards that waits for the round after the one holding its sender. */
export interface StoredOutbound {
  /** The message BOC. */
  blob: BlobRef;
  /** Sender and destination, raw form (`workchain:hex`). */
  from: string;
  dest: string;
}

export interface Round {
  /** The basechain blocks (one per shard), then the masterchain block. */
  blocks: StoredBlock[];
  /** Accounts changed in this round, with their state after it (keyed by the round's masterchain seqno). */
  accounts: StoredAccount[];
  /** Sandbox logical time after the round. */
  lt: bigint;
  /** Global libraries dictionary, when it changed in this round (always set at genesis). */
  libs?: BlobRef;
  /** ConfigParams dictionary (genesis only). */
  config?: BlobRef;
  /**
   * Config params this round changed (the elector's validator sets), as a patch on the config before it:
   * `HashmapE 32 (Maybe ^Cell)`, nothing = the param was removed. A few hundred bytes instead of the whole config.
   */
  configPatch?: BlobRef;
  /**
   * Messages between shards that this round's transactions sent, delivered after it. A restart delivers them again
   * from here, since what their delivery did is only kept from the next round on.
   */
  outbound?: StoredOutbound[];
}

interface BlobSink {
  size: number;
  append(data: Buffer): BlobRef;
  read(ref: BlobRef): Buffer;
  sync(): void;
  close(): void;
}

class MemoryBlobs implements BlobSink {
  size = 0;
  private readonly chunks = new Map<number, Buffer>();
  append(data: Buffer): BlobRef {
    const ref = { off: this.size, len: data.length };
    this.chunks.set(ref.off, Buffer.from(data));
    this.size += data.length;
    return ref;
  }
  read(ref: BlobRef): Buffer {
    const b = this.chunks.get(ref.off);
    if (!b || b.length !== ref.len) throw new Error(`no blob at ${ref.off}`);
    return b;
  }
  sync(): void {}
  close(): void {}
}

class FileBlobs implements BlobSink {
  size: number;
  private readonly fd: number;
  constructor(path: string, validLength: number | null) {
    this.fd = openSync(path, 'a+');
    this.size = fstatSync(this.fd).size;
    // Bytes past the last journaled reference belong to a round that never committed.
    if (validLength !== null && this.size > validLength) {
      ftruncateSync(this.fd, validLength);
      this.size = validLength;
    }
  }
  append(data: Buffer): BlobRef {
    const ref = { off: this.size, len: data.length };
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written, data.length - written);
    this.size += data.length;
    return ref;
  }
  read(ref: BlobRef): Buffer {
    const out = Buffer.alloc(ref.len);
    let got = 0;
    while (got < ref.len) {
      const n = readSync(this.fd, out, got, ref.len - got, ref.off + got);
      if (n === 0) throw new Error(`blob at ${ref.off} is truncated`);
      got += n;
    }
    return out;
  }
  sync(): void {
    fsyncSync(this.fd);
  }
  close(): void {
    closeSync(this.fd);
  }
}

export class ChainStore {
  private constructor(
    private readonly blobs: BlobSink,
    private readonly journalFd: number | null,
    /** Rounds found on disk at open, oldest first. */
    readonly recovered: Round[],
  ) {}

  static open(dir: string | undefined): ChainStore {
    if (dir === undefined) return new ChainStore(new MemoryBlobs(), null, []);
    mkdirSync(dir, { recursive: true });
    const journalPath = join(dir, 'journal.ndjson');
    const rounds: Round[] = [];
    let validJournalBytes = 0;
    let validBlobBytes = 0;
    let text = '';
    try {
      text = readFileSync(journalPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let pos = 0;
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) break; // torn last line
      const line = text.slice(pos, nl);
      let round: Round;
      try {
        round = decodeRound(JSON.parse(line));
      } catch {
        break;
      }
      rounds.push(round);
      validBlobBytes = Math.max(validBlobBytes, maxBlobEnd(round));
      pos = nl + 1;
      validJournalBytes = Buffer.byteLength(text.slice(0, pos), 'utf8');
    }
    const journalFd = openSync(journalPath, 'a+');
    if (fstatSync(journalFd).size > validJournalBytes) ftruncateSync(journalFd, validJournalBytes);
    const blobs = new FileBlobs(join(dir, 'blobs.bin'), rounds.length > 0 ? validBlobBytes : 0);
    if (blobs.size < validBlobBytes) throw new Error(`devnet data in ${dir} is damaged: blobs.bin is shorter than the journal says`);
    return new ChainStore(blobs, journalFd, rounds);
  }

  putBlob(data: Buffer): BlobRef {
    return this.blobs.append(data);
  }

  private closed = false;

  getBlob(ref: BlobRef): Buffer {
    if (this.closed) throw new ChainError('unavailable', 'devnet is closed');
    return this.blobs.read(ref);
  }

  appendRound(round: Round): void {
    if (this.journalFd === null) return;
    this.blobs.sync();
    const line = Buffer.from(JSON.stringify(encodeRound(round)) + '\n', 'utf8');
    let written = 0;
    while (written < line.length) written += writeSync(this.journalFd, line, written, line.length - written);
    fsyncSync(this.journalFd);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.blobs.close();
    if (this.journalFd !== null) closeSync(this.journalFd);
  }
}

function maxBlobEnd(r: Round): number {
  let end = 0;
  const see = (b?: BlobRef) => {
    if (b) end = Math.max(end, b.off + b.len);
  };
  for (const b of r.blocks) for (const t of b.txs) see(t.blob);
  for (const a of r.accounts) see(a.blob);
  see(r.libs);
  see(r.config);
  see(r.configPatch);
  for (const o of r.outbound ?? []) see(o.blob);
  return end;
}

// JSON form of the journal: bigints as decimal strings, hashes as hex.
type Json = Record<string, unknown>;

function encId(id: BlockIdExt): Json {
  return {
    wc: id.workchain,
    shard: id.shard.toString(),
    seqno: id.seqno,
    root: id.rootHash.toString('hex'),
    file: id.fileHash.toString('hex'),
  };
}
function decId(j: any): BlockIdExt {
  return {
    workchain: j.wc,
    shard: BigInt(j.shard),
    seqno: j.seqno,
    rootHash: Buffer.from(j.root, 'hex'),
    fileHash: Buffer.from(j.file, 'hex'),
  };
}
function encBlob(b: BlobRef): [number, number] {
  return [b.off, b.len];
}
function decBlob(j: any): BlobRef {
  if (!Array.isArray(j) || typeof j[0] !== 'number' || typeof j[1] !== 'number') throw new Error('bad blob ref');
  return { off: j[0], len: j[1] };
}

function encodeRound(r: Round): Json {
  return {
    blocks: r.blocks.map((b) => ({
      id: encId(b.id),
      utime: b.genUtime,
      startLt: b.startLt.toString(),
      endLt: b.endLt.toString(),
      prev: b.prevBlocks.map(encId),
      shards: b.shardBlocks.map(encId),
      mcRef: b.masterchainRef
        ? { wc: b.masterchainRef.workchain, shard: b.masterchainRef.shard.toString(), seqno: b.masterchainRef.seqno }
        : undefined,
      state: b.stateHash.toString('hex'),
      beforeSplit: b.beforeSplit ? true : undefined,
      txs: b.txs.map((t) => [t.workchain, t.account.toString('hex'), t.lt.toString(), t.hash.toString('hex'), ...encBlob(t.blob)]),
    })),
    accounts: r.accounts.map((a) => [a.workchain, a.account.toString('hex'), ...encBlob(a.blob)]),
    lt: r.lt.toString(),
    libs: r.libs ? encBlob(r.libs) : undefined,
    config: r.config ? encBlob(r.config) : undefined,
    configPatch: r.configPatch ? encBlob(r.configPatch) : undefined,
    outbound: r.outbound?.map((o) => [o.from, o.dest, ...encBlob(o.blob)]),
  };
}

function decodeRound(j: any): Round {
  return {
    blocks: j.blocks.map((b: any) => ({
      id: decId(b.id),
      genUtime: b.utime,
      startLt: BigInt(b.startLt),
      endLt: BigInt(b.endLt),
      prevBlocks: b.prev.map(decId),
      shardBlocks: b.shards.map(decId),
      masterchainRef: b.mcRef ? { workchain: b.mcRef.wc, shard: BigInt(b.mcRef.shard), seqno: b.mcRef.seqno } : undefined,
      stateHash: Buffer.from(b.state, 'hex'),
      ...(b.beforeSplit ? { beforeSplit: true } : {}),
      txs: b.txs.map((t: any[]) => ({
        workchain: t[0],
        account: Buffer.from(t[1], 'hex'),
        lt: BigInt(t[2]),
        hash: Buffer.from(t[3], 'hex'),
        blob: decBlob([t[4], t[5]]),
      })),
    })),
    accounts: j.accounts.map((a: any[]) => ({ workchain: a[0], account: Buffer.from(a[1], 'hex'), blob: decBlob([a[2], a[3]]) })),
    lt: BigInt(j.lt),
    libs: j.libs ? decBlob(j.libs) : undefined,
    config: j.config ? decBlob(j.config) : undefined,
    configPatch: j.configPatch ? decBlob(j.configPatch) : undefined,
    outbound: j.outbound?.map((o: any[]) => ({ from: o[0], dest: o[1], blob: decBlob([o[2], o[3]]) })),
  };
}
