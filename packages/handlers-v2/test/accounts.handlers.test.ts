import { Address, Cell } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createV2Handlers } from '../src/index.js';
import { seededDevnet } from './devnet-fixture.js';
import { call, callError } from './harness.js';

const fx = await seededDevnet();
const { ops, seed, devnet } = fx;
afterAll(() => devnet.close());
const faucet = devnet.faucet.address;
const nobody = new Address(0, Buffer.alloc(32, 0x5a));
const [alice, bob] = seed.wallets.map((w) => w.address);

describe('createV2Handlers', () => {
  it('has every v2 operation except jsonRPC, each read also in its POST form', () => {
    const handlers = createV2Handlers({ chain: devnet });
    const reads = [
      'getAddressInformation',
      'getExtendedAddressInformation',
      'getWalletInformation',
      'getAddressBalance',
      'getAddressState',
      'getTokenData',
      'getShardAccountCell',
      'dnsResolve',
      'getMasterchainInfo',
      'getMasterchainBlockSignatures',
      'getShardBlockProof',
      'getConsensusBlock',
      'lookupBlock',
      'getShards',
      'shards',
      'getBlockHeader',
      'getOutMsgQueueSize',
      'getBlockTransactions',
      'getBlockTransactionsExt',
      'getTransactions',
      'getTransactionsStd',
      'tryLocateTx',
      'tryLocateResultTx',
      'tryLocateSourceTx',
      'detectAddress',
      'detectHash',
      'packAddress',
      'unpackAddress',
      'getConfigParam',
      'getConfigAll',
      'getLibraries',
    ];
    const writes = ['sendBoc', 'sendBocReturnHash', 'estimateFee', 'runGetMethod', 'runGetMethodStd'];
    expect(Object.keys(handlers).sort()).toEqual([...reads, ...reads.map((r) => `${r}Post`), ...writes].sort());
  });
});

describe('getAddressInformation', () => {
  it('an active wallet: raw.fullAccountState with strings for balance, BOCs for code/data', async () => {
    const { result } = await call(ops, 'getAddressInformation', { address: faucet.toString({ testOnly: true }) });
    expect(result['@type']).toBe('raw.fullAccountState');
    expect(result.state).toBe('active');
    expect(typeof result.balance).toBe('string');
    expect(BigInt(result.balance)).toBeGreaterThan(0n);
    expect(Cell.fromBase64(result.code).hash().toString('hex')).toBe('feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0');
    expect(result.last_transaction_id['@type']).toBe('internal.transactionId');
    expect(result.last_transaction_id.lt).not.toBe('0');
    expect(result.block_id['@type']).toBe('ton.blockIdExt');
    expect(result.frozen_hash).toBe('');
    expect(result.suspended).toBe(false);
  });

  it('a missing account: uninitialized, balance "0", empty code/data, zero last transaction', async () => {
    const { result } = await call(ops, 'getAddressInformation', { address: nobody.toRawString() });
    expect(result.state).toBe('uninitialized');
    expect(result.balance).toBe('0');
    expect(result.code).toBe('');
    expect(result.data).toBe('');
    expect(result.last_transaction_id).toEqual({ '@type': 'internal.transactionId', lt: '0', hash: Buffer.alloc(32).toString('base64') });
  });

  it('seqno reads the state at that masterchain block', async () => {
    const { result: now } = await call(ops, 'getAddressInformation', { address: alice!.toRawString() });
    const { result: genesis } = await call(ops, 'getAddressInformation', { address: alice!.toRawString(), seqno: 1 });
    expect(genesis.block_id.seqno).toBe(1);
    expect(genesis.state).toBe('uninitialized');
    expect(now.state).toBe('active');
  });

  it('bad address → 422 naming it; future seqno → not_found', async () => {
    expect(await callError(ops, 'getAddressInformation', { address: 'EQ-nope' })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/address/),
    });
    expect(await callError(ops, 'getAddressInformation', { address: faucet.toRawString(), seqno: 10_000_000 })).toMatchObject({
      status: 404,
    });
  });
});

describe('other account operations', () => {
  it('getExtendedAddressInformation: wallet v4 variant with seqno and wallet_id; uninited for a missing account', async () => {
    const { result } = await call(ops, 'getExtendedAddressInformation', { address: faucet.toRawString() });
    expect(result['@type']).toBe('fullAccountState');
    expect(result.account_state['@type']).toBe('wallet.v4.accountState');
    expect(result.account_state.wallet_id).toBe(698983191);
    expect(result.account_state.seqno).toBeGreaterThan(0);
    expect(result.address.account_address).toBe(`0:${faucet.hash.toString('hex').toUpperCase()}`);
    const { result: v5 } = await call(ops, 'getExtendedAddressInformation', { address: bob!.toString() });
    expect(v5.account_state['@type']).toBe('raw.accountState');
    const { result: none } = await call(ops, 'getExtendedAddressInformation', { address: nobody.toString() });
    expect(none.account_state['@type']).toBe('uninited.accountState');
  });

  it('getWalletInformation: v4 r2 and v5 r1 wallets, and a contract that is not a wallet', async () => {
    const { result: v4 } = await call(ops, 'getWalletInformation', { address: alice!.toString() });
    expect(v4).toMatchObject({
      '@type': 'ext.accounts.walletInformation',
      wallet: true,
      wallet_type: 'wallet v4 r2',
      account_state: 'active',
      wallet_id: 698983191,
    });
    expect(v4.seqno).toBeGreaterThan(0);
    const { result: v5 } = await call(ops, 'getWalletInformation', { address: bob!.toString() });
    expect(v5).toMatchObject({ wallet: true, wallet_type: 'wallet v5 r1', is_signature_allowed: true });
    const { result: minter } = await call(ops, 'getWalletInformation', { address: seed.jetton.minter.toString() });
    expect(minter.wallet).toBe(false);
    expect(minter).not.toHaveProperty('wallet_type');
  });

  it('getAddressBalance and getAddressState are non-empty strings', async () => {
    expect((await call(ops, 'getAddressBalance', { address: nobody.toString() })).result).toBe('0');
    const { result: balance } = await call(ops, 'getAddressBalance', { address: faucet.toString() });
    expect(BigInt(balance)).toBeGreaterThan(0n);
    expect((await call(ops, 'getAddressState', { address: faucet.toString() })).result).toBe('active');
    expect((await call(ops, 'getAddressState', { address: nobody.toString() })).result).toBe('uninitialized');
  });
});

describe('getTokenData', () => {
  it('jetton master', async () => {
    const { result } = await call(ops, 'getTokenData', { address: seed.jetton.minter.toString() });
    expect(result['@type']).toBe('ext.tokens.jettonMasterData');
    expect(result.contract_type).toBe('jetton_master');
    expect(result.total_supply).toBe((seed.jetton.minted - seed.jetton.burned).toString());
    expect(typeof result.mintable).toBe('boolean');
    expect(['onchain', 'offchain']).toContain(result.jetton_content.type);
  });

  it('jetton wallet, verified against its master', async () => {
    const { result } = await call(ops, 'getTokenData', { address: seed.jetton.wallets[0]!.toString() });
    expect(result['@type']).toBe('ext.tokens.jettonWalletData');
    expect(Address.parse(result.jetton).equals(seed.jetton.minter)).toBe(true);
    expect(typeof result.balance).toBe('string');
  });

  it('NFT collection and item (item verified against the collection)', async () => {
    const { result: collection } = await call(ops, 'getTokenData', { address: seed.nft.collection.toString() });
    expect(collection['@type']).toBe('ext.tokens.nftCollectionData');
    expect(BigInt(collection.next_item_index)).toBeGreaterThan(0n);
    const { result: item } = await call(ops, 'getTokenData', { address: seed.nft.item.toString() });
    expect(item['@type']).toBe('ext.tokens.nftItemData');
    expect(Address.parse(item.collection_address).equals(seed.nft.collection)).toBe(true);
    expect(Address.parse(item.owner_address).equals(seed.nft.ownerAfterTransfer)).toBe(true);
    expect(item.init).toBe(true);
  });

  it('a wallet or missing account is not a token → 409', async () => {
    expect(await callError(ops, 'getTokenData', { address: faucet.toString() })).toMatchObject({
      status: 409,
      message: 'Smart contract is not Jetton or NFT',
    });
    expect(await callError(ops, 'getTokenData', { address: nobody.toString() })).toMatchObject({ status: 409 });
  });
});
