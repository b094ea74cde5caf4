/**
 * The generated TL codecs (generated/liteserver/ from spec/liteserver/lite_api.tl) against an independent
 * implementation (ton-lite-client 3.1.1's ton-tl codecs) and against real recorded mainnet answers.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encode,
  liteServerGetAccountState,
  liteServerGetConfigAll,
  liteServerGetLibraries,
  liteServerGetMasterchainInfo,
  liteServerListBlockTransactions,
  liteServerLookupBlock,
  liteServerGetTransactions,
  readBoxedLiteServerBlockLink,
  readBoxedLiteServerConfigInfo,
  readBoxedLiteServerMasterchainInfo,
  readBoxedLiteServerBlockTransactions,
  TL_FUNCTIONS,
  TL_ID,
  TlReader,
  TlWriter,
  writeBoxedLiteServerBlockLink,
  writeBoxedLiteServerBlockTransactions,
  writeBoxedLiteServerMasterchainInfo,
  type LiteServerBlockLink,
  type TonNodeBlockIdExt,
} from '@tongate/liteserver-tl';
// @ts-expect-error tools/lib is plain JavaScript without declarations
import { tlConstructorId } from '../../../tools/lib/tl.mjs';
import { fixturePath } from '@tongate/testdata';

const require = createRequire(import.meta.url);
// The independent implementation: ton-lite-client's generated schema and the ton-tl buffers it uses.
const lite = require('ton-lite-client/dist/schema.js') as {
  Functions: Record<string, { encodeRequest(src: unknown, w: unknown): void }>;
  Codecs: Record<string, { decode(r: unknown): any; encode(src: unknown, w: unknown): void }>;
};
const tl = require('ton-tl') as { TLWriteBuffer: new () => { build(): Buffer }; TLReadBuffer: new (b: Buffer) => unknown };

const fixtures = fixturePath('liteserver');
const h = (s: string) => Buffer.from(s, 'hex');
const id: TonNodeBlockIdExt = {
  workchain: -1,
  shard: -(2n ** 63n),
  seqno: 26309435,
  rootHash: Buffer.alloc(32, 7),
  fileHash: Buffer.alloc(32, 9),
};
const theirId = {
  kind: 'tonNode.blockIdExt',
  workchain: -1,
  shard: '-9223372036854775808',
  seqno: 26309435,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
};

function theirs(fn: string, src: object): Buffer {
  const w = new tl.TLWriteBuffer();
  lite.Functions[fn].encodeRequest(src, w);
  return w.build();
}

describe('constructor ids', () => {
  it('match every function id ton-lite-client sends, except its known-wrong getValidatorStats', () => {
    const source = readFileSync(require.resolve('ton-lite-client/dist/schema.js'), 'utf8');
    const theirIds = new Map<string, number>();
    for (const m of source.matchAll(/ {4}(\w+): \{\n {8}encodeRequest: \(src, encoder\) => \{ encoder\.writeInt32\((-?\d+)\)/g)) {
      theirIds.set(m[1].replace(/_/g, '.').replace(/^liteServer\./, 'liteServer.'), Number(m[2]) >>> 0);
    }
    let compared = 0;
    for (const fn of TL_FUNCTIONS.values()) {
      const key = fn.name.replace('liteServer.', 'liteServer.');
      const theirsId = theirIds.get(key);
      if (theirsId === undefined) continue;
      expect([fn.name, fn.id]).toEqual([fn.name, theirsId]);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(20);
  });

  it('follow the TL rule, with its traps (parentheses, continuation lines, explicit ids)', () => {
    expect(
      tlConstructorId('liteServer.getConfigParams mode:# id:tonNode.blockIdExt param_list:(vector int) = liteServer.ConfigInfo;'),
    ).toBe(0x2a111c19);
    expect(TL_ID['liteServer.signatureSet.simplex']).toBe(0xac249800);
    expect(TL_ID['liteServer.signatureSet.ordinary']).toBe(0xf644a6e6);
    expect(TL_ID['liteServer.transactionId']).toBe(0xb12f65af);
    expect(TL_ID['tcp.ping']).toBe(0x4d082b9a);
    expect(TL_ID['tcp.pong']).toBe(0xdc69fb03);
    expect(TL_ID['adnl.message.query']).toBe(0xb48bf97a);
    expect(TL_ID['adnl.message.answer']).toBe(0x0fac8416);
    expect(TL_ID['liteServer.query']).toBe(0x798c06df);
    expect(TL_ID['liteServer.waitMasterchainSeqno']).toBe(0xbaeab892);
    expect(TL_ID['liteServer.error']).toBe(0xbba9e148);
  });
});

describe('requests encode byte for byte as ton-lite-client encodes them', () => {
  it('getMasterchainInfo, getAccountState, getConfigAll, getTransactions', () => {
    expect(encode(liteServerGetMasterchainInfo, {})).toEqual(
      theirs('liteServer_getMasterchainInfo', { kind: 'liteServer.getMasterchainInfo' }),
    );
    const account = { workchain: 0, id: Buffer.alloc(32, 0xab) };
    expect(encode(liteServerGetAccountState, { id, account })).toEqual(
      theirs('liteServer_getAccountState', {
        kind: 'liteServer.getAccountState',
        id: theirId,
        account: { kind: 'liteServer.accountId', ...account },
      }),
    );
    expect(encode(liteServerGetConfigAll, { mode: 0, id })).toEqual(
      theirs('liteServer_getConfigAll', { kind: 'liteServer.getConfigAll', mode: 0, id: theirId }),
    );
    expect(encode(liteServerGetTransactions, { count: 16, account, lt: 123456789012345n, hash: Buffer.alloc(32, 1) })).toEqual(
      theirs('liteServer_getTransactions', {
        kind: 'liteServer.getTransactions',
        count: 16,
        account: { kind: 'liteServer.accountId', ...account },
        lt: '123456789012345',
        hash: Buffer.alloc(32, 1),
      }),
    );
  });

  it('lookupBlock with optional fields, listBlockTransactions with `after` (flag fields)', () => {
    const blockId = { workchain: 0, shard: -(2n ** 63n), seqno: 5 };
    const theirBlockId = { kind: 'tonNode.blockId', workchain: 0, shard: '-9223372036854775808', seqno: 5 };
    expect(encode(liteServerLookupBlock, { mode: 2, id: blockId, lt: 1000n })).toEqual(
      theirs('liteServer_lookupBlock', { kind: 'liteServer.lookupBlock', mode: 2, id: theirBlockId, lt: '1000', utime: null }),
    );
    expect(encode(liteServerLookupBlock, { mode: 4, id: blockId, utime: 1700000000 })).toEqual(
      theirs('liteServer_lookupBlock', { kind: 'liteServer.lookupBlock', mode: 4, id: theirBlockId, lt: null, utime: 1700000000 }),
    );
    const after = { account: Buffer.alloc(32, 3), lt: 77n };
    expect(encode(liteServerListBlockTransactions, { id, mode: 0x87, count: 40, after })).toEqual(
      theirs('liteServer_listBlockTransactions', {
        kind: 'liteServer.listBlockTransactions',
        id: theirId,
        mode: 0x87,
        count: 40,
        after: { kind: 'liteServer.transactionId3', account: after.account, lt: '77' },
        reverseOrder: null,
        wantProof: null,
      }),
    );
  });

  it('`true` flags take no bytes (ton-tl writes a stray Bool for them; the server would reject that)', () => {
    const bytes = encode(liteServerListBlockTransactions, { id, mode: 0x67, count: 1, reverseOrder: true, wantProof: true });
    expect(bytes.length).toBe(4 + 80 + 4 + 4);
  });
});

describe('answers decode as ton-lite-client decodes them', () => {
  it('masterchainInfo, blockTransactions', () => {
    const w = new TlWriter();
    writeBoxedLiteServerMasterchainInfo(w, {
      last: id,
      stateRootHash: Buffer.alloc(32, 5),
      init: { workchain: -1, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) },
    });
    const info = lite.Codecs.liteServer_MasterchainInfo.decode(new tl.TLReadBuffer(w.finish()));
    expect(info.last.seqno).toBe(26309435);
    expect(info.last.shard).toBe('-9223372036854775808');
    expect(Buffer.from(info.stateRootHash)).toEqual(Buffer.alloc(32, 5));

    const txs = new TlWriter();
    writeBoxedLiteServerBlockTransactions(txs, {
      id,
      reqCount: 2,
      incomplete: true,
      ids: [
        { mode: 7, account: Buffer.alloc(32, 1), lt: 10n, hash: Buffer.alloc(32, 2) },
        { mode: 7, account: Buffer.alloc(32, 3), lt: 11n, hash: Buffer.alloc(32, 4) },
      ],
      proof: Buffer.alloc(0),
    });
    const decoded = lite.Codecs.liteServer_BlockTransactions.decode(new tl.TLReadBuffer(txs.finish()));
    expect(decoded.incomplete).toBe(true);
    expect(decoded.ids.map((t: { lt: string }) => t.lt)).toEqual(['10', '11']);
    const back = readBoxedLiteServerBlockTransactions(new TlReader(txs.finish()));
    expect(back.ids[1].hash).toEqual(Buffer.alloc(32, 4));
  });

  it('boxed unions round-trip with their tag (block links)', () => {
    const link: LiteServerBlockLink = {
      _: 'liteServer.blockLinkForward',
      toKeyBlock: false,
      from: id,
      to: { ...id, seqno: id.seqno + 1 },
      destProof: Buffer.from([1, 2, 3]),
      configProof: Buffer.alloc(300, 4),
      signatures: {
        _: 'liteServer.signatureSet.ordinary',
        validatorSetHash: -5,
        catchainSeqno: 9,
        signatures: [{ nodeIdShort: Buffer.alloc(32, 8), signature: Buffer.alloc(64, 6) }],
      },
    };
    const w = new TlWriter();
    writeBoxedLiteServerBlockLink(w, link);
    const r = new TlReader(w.finish());
    expect(readBoxedLiteServerBlockLink(r)).toEqual(link);
    r.end();
  });
});

describe('recorded mainnet answers (tongo testdata)', () => {
  it('get-last-config-all-1.bin is a masterchainInfo of block 26309435 with the mainnet zero state', () => {
    const r = new TlReader(readFileSync(path.join(fixtures, 'tongo/ton/get-last-config-all-1.bin')));
    const info = readBoxedLiteServerMasterchainInfo(r);
    r.end();
    expect(info.last.seqno).toBe(26309435);
    expect(info.last.rootHash).toEqual(h('6fb254367a7db4fa56bcf1c7aa0c5783a648e1f1ea9fafd72bd612d71fb5f5cd'));
    expect(info.stateRootHash).toEqual(h('4ba142bd0fc799696af9c897a904e724b840cf7a8857750144e2e92558a0568e'));
    expect(info.init.rootHash).toEqual(h('17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569'));
  });

  it('get-last-config-all-2.bin is a configInfo with 518 + 42,806 bytes of proofs and nothing left over', () => {
    const r = new TlReader(readFileSync(path.join(fixtures, 'tongo/ton/get-last-config-all-2.bin')));
    const config = readBoxedLiteServerConfigInfo(r);
    r.end();
    expect(config.mode).toBe(0);
    expect(config.id.seqno).toBe(26309435);
    expect(config.stateProof.length).toBe(518);
    expect(config.configProof.length).toBe(42806);
  });

  it('a truncated answer and a hostile vector length are errors, not crashes or huge allocations', () => {
    const bytes = readFileSync(path.join(fixtures, 'tongo/ton/get-last-config-all-2.bin'));
    expect(() => readBoxedLiteServerConfigInfo(new TlReader(bytes.subarray(0, 1000)))).toThrow(/ends early/);
    const hostile = Buffer.alloc(8);
    hostile.writeUInt32LE(TL_ID['liteServer.libraryResult'], 0);
    hostile.writeUInt32LE(0xffffffff, 4);
    expect(() => liteServerGetLibraries.readResult(new TlReader(hostile))).toThrow(/does not fit/);
  });
});
