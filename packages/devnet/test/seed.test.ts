import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileFunc } from '@ton-community/func-js';
import { Address, beginCell, Cell, Dictionary, internal, toNano, type MessageRelaxed, type TupleItem } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCodes, createDevnet, dns, signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '../src/index.js';
import { JETTON_OP, NFT_OP } from '../src/contracts/tokens.js';

let devnet: Devnet;
let seed: SeedSummary;

const int = (item: TupleItem) => (item as { value: bigint }).value;
const addr = (item: TupleItem) => (item as { cell: import('@ton/core').Cell }).cell.beginParse().loadAddress();
const addressArg = (a: Address): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  seed = await devnet.seed();
});
afterAll(() => devnet.close());

async function opsOf(address: Address): Promise<number[]> {
  const state = await devnet.getAccountState(address);
  const txs = await devnet.getAccountTransactions(address, state.lastTransaction!, 50);
  return txs.map((t) => {
    const body = t.tx.inMessage?.body.beginParse();
    return body && body.remainingBits >= 32 ? body.loadUint(32) : -1;
  });
}

describe('seed', () => {
  it('deploys v4r2, v5r1 and v3r2 wallets that exchanged comments', async () => {
    for (const w of seed.wallets) {
      const state = await devnet.getAccountState(w.address);
      expect(state.status).toBe('active');
      expect(state.balance > 0n).toBe(true);
      expect(int((await devnet.runGetMethod(w.address, 'seqno', [])).stack[0]) > 0n).toBe(true);
    }
    const [alice] = seed.wallets;
    const state = await devnet.getAccountState(alice.address);
    const txs = await devnet.getAccountTransactions(alice.address, state.lastTransaction!, 50);
    const comments = txs
      .map((t) => t.tx.inMessage?.body.beginParse())
      .filter((s) => s && s.remainingBits >= 32 && s.preloadUint(32) === 0)
      .map((s) => s!.skip(32).loadStringTail());
    expect(comments).toEqual(expect.arrayContaining(['hi alice, from a v5r1 wallet', 'hi alice, from a v3r2 wallet']));
    expect(seed.wallets.map((w) => w.version)).toEqual(['v4r2', 'v5r1', 'v3r2']);
  });

  it('runs a TEP-74 jetton: mint, transfer, burn', async () => {
    const { minter, wallets, minted, transferred, burned } = seed.jetton;
    const minterState = await devnet.getAccountState(minter);
    expect(minterState.code!.hash().toString('hex')).toBe(contractCodes.jettonMinterCodeHash);
    const data = await devnet.runGetMethod(minter, 'get_jetton_data', []);
    expect(data.exitCode).toBe(0);
    expect(int(data.stack[0])).toBe(minted - burned);
    const [aliceJw, bobJw] = wallets;
    const aliceOwner = seed.wallets[0].address;
    const resolved = await devnet.runGetMethod(minter, 'get_wallet_address', [addressArg(aliceOwner)]);
    expect(addr(resolved.stack[0]).equals(aliceJw)).toBe(true);
    expect(int((await devnet.runGetMethod(aliceJw, 'get_wallet_data', [])).stack[0])).toBe(minted - transferred);
    expect(int((await devnet.runGetMethod(bobJw, 'get_wallet_data', [])).stack[0])).toBe(transferred - burned);
    expect(await opsOf(bobJw)).toEqual(expect.arrayContaining([JETTON_OP.internalTransfer, JETTON_OP.burn]));
    expect(await opsOf(aliceJw)).toEqual(expect.arrayContaining([JETTON_OP.internalTransfer, JETTON_OP.transfer]));
  });

  it('runs a TEP-62 NFT collection: mint and transfer', async () => {
    const { collection, item, ownerAfterTransfer } = seed.nft;
    expect((await devnet.getAccountState(collection)).code!.hash().toString('hex')).toBe(contractCodes.nftCollectionCodeHash);
    const cdata = await devnet.runGetMethod(collection, 'get_collection_data', []);
    expect(int(cdata.stack[0])).toBe(1n);
    const nft = await devnet.runGetMethod(item, 'get_nft_data', []);
    expect(int(nft.stack[0])).toBe(-1n); // initialized
    expect(addr(nft.stack[2]).equals(collection)).toBe(true);
    expect(addr(nft.stack[3]).equals(ownerAfterTransfer)).toBe(true);
    expect(await opsOf(item)).toContain(NFT_OP.transfer);
  });

  it('config param 4 names the root resolver, which resolves `ton` to the collection, which resolves each domain to its item', async () => {
    const param4 = await devnet.getConfigParam(4);
    expect(new Address(-1, param4!.beginParse().loadBuffer(32)).equals(seed.dns.root)).toBe(true);
    const resolve = async (at: Address, text: string) =>
      devnet.runGetMethod(at, 'dnsresolve', [
        { type: 'slice', cell: beginCell().storeBuffer(Buffer.from(text, 'latin1')).endCell() },
        { type: 'int', value: dns.dnsCategory('dns_next_resolver') },
      ]);
    const nextResolver = (stack: TupleItem[]) => (stack[1] as { cell: Cell }).cell.beginParse().skip(16).loadAddress();
    for (const text of ['ton\0', '\0ton\0', 'ton\0alice\0']) {
      const r = await resolve(seed.dns.root, text);
      expect(r.exitCode).toBe(0);
      expect(int(r.stack[0])).toBe(text.startsWith('\0') ? 32n : 24n);
      expect(nextResolver(r.stack).equals(seed.dns.collection)).toBe(true);
    }
    expect(int((await resolve(seed.dns.root, 'com\0')).stack[0])).toBe(0n);
    for (const item of seed.dns.items) {
      const label = item.domain.replace(/\.ton$/, '');
      const r = await resolve(seed.dns.collection, `\0${label}\0`);
      expect(int(r.stack[0])).toBe(BigInt(8 + label.length * 8));
      expect(nextResolver(r.stack).equals(item.address)).toBe(true);
      const byIndex = await devnet.runGetMethod(seed.dns.collection, 'get_nft_address_by_index', [
        { type: 'int', value: dns.dnsItemIndex(label) },
      ]);
      expect(addr(byIndex.stack[0]).equals(item.address)).toBe(true);
      // The collection deployed it: its first transaction's message came from the collection, with the state init.
      const state = await devnet.getAccountState(item.address);
      const txs = await devnet.getAccountTransactions(item.address, state.lastTransaction!, 50);
      const first = txs[txs.length - 1].tx.inMessage!;
      expect(first.info.src?.toString()).toBe(seed.dns.collection.toString());
      expect(
        first.init?.data
          ?.hash()
          .equals(beginCell().storeUint(dns.dnsItemIndex(label), 256).storeAddress(seed.dns.collection).endCell().hash()),
      ).toBe(true);
    }
  });

  it('the .ton collection registers domains for its admin only, and only well-formed labels', async () => {
    const v4 = seed.wallets.find((w) => w.version === 'v4r2')!;
    const sendFrom = async (secret: Buffer, wallet: WalletContractV4, out: MessageRelaxed[]) => {
      const seqno = Number(int((await devnet.runGetMethod(wallet.address, 'seqno', [])).stack[0]));
      await devnet.sendMessage(await walletTransferBoc(wallet, signerFromSeed(secret), seqno, out));
      await devnet.settle();
    };
    const tag = Date.now().toString(36);
    const register = (label: string) =>
      internal({ to: seed.dns.collection, value: toNano('1.2'), bounce: true, body: dns.registerDomainBody(label, v4.address) });
    // Not the admin: refused.
    const signer = signerFromSeed(Buffer.from(v4.secretSeedHex, 'hex'));
    await sendFrom(Buffer.from(v4.secretSeedHex, 'hex'), WalletContractV4.create({ workchain: 0, publicKey: signer.publicKey }), [
      register(`stolen-${tag}`),
    ]);
    // The admin, with labels the collection refuses: upper case, too short, a leading hyphen.
    const faucetWallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    await sendFrom(devnet.faucet.secretKey, faucetWallet, [
      register(`Upper-${tag}`),
      register('abc'),
      register(`-lead-${tag}`),
      register(`fine-${tag}`),
    ]);
    for (const label of [`stolen-${tag}`, `Upper-${tag}`, 'abc', `-lead-${tag}`]) {
      expect((await devnet.getAccountState(dns.dnsItemAddress(seed.dns.collection, label))).status, label).toBe('nonexist');
    }
    const fine = dns.dnsItemAddress(seed.dns.collection, `fine-${tag}`);
    const nft = await devnet.runGetMethod(fine, 'get_nft_data', []);
    expect(addr(nft.stack[3]).equals(v4.address)).toBe(true);
    expect(int((await devnet.runGetMethod(fine, 'get_auction_info', [])).stack[1])).toBe(0n);
  });

  it('deploys .ton domains whose records resolve through the item code', async () => {
    for (const item of seed.dns.items) {
      expect((await devnet.getAccountState(item.address)).code!.hash().toString('hex')).toBe(contractCodes.devnetDnsItemCodeHash);
      const nft = await devnet.runGetMethod(item.address, 'get_nft_data', []);
      expect(addr(nft.stack[3]).equals(item.owner)).toBe(true);
      const resolve = async (category: string) => {
        const r = await devnet.runGetMethod(item.address, 'dnsresolve', [
          { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
          { type: 'int', value: dns.dnsCategory(category) },
        ]);
        expect(r.exitCode).toBe(0);
        expect(int(r.stack[0])).toBe(8n);
        return r.stack[1].type === 'cell' ? r.stack[1].cell : null;
      };
      expect((await resolve('wallet'))!.beginParse().skip(16).loadAddress().equals(item.wallet!)).toBe(true);
      const site = await resolve('site');
      expect(site ? site.beginParse().skip(16).loadBuffer(32).toString('hex') : null).toBe(item.siteAdnl);
      const storage = await resolve('storage');
      expect(storage ? storage.beginParse().skip(16).loadBuffer(32).toString('hex') : null).toBe(item.storageBagId);
      const next = await resolve('dns_next_resolver');
      expect(next ? next.beginParse().skip(16).loadAddress().toRawString() : null).toBe(item.nextResolver?.toRawString() ?? null);
    }
  });

  it("deploys a vesting wallet that relays its owner's transfer to a whitelisted address", async () => {
    const v = seed.vesting;
    expect((await devnet.getAccountState(v.address)).code!.hash().toString('hex')).toBe(contractCodes.vestingWalletCodeHash);
    const r = await devnet.runGetMethod(v.address, 'get_vesting_data', []);
    expect(r.exitCode).toBe(0);
    expect(r.stack.slice(0, 5).map(int)).toEqual([
      BigInt(v.startTime),
      BigInt(v.totalDuration),
      BigInt(v.unlockPeriod),
      BigInt(v.cliffDuration),
      v.totalAmount,
    ]);
    expect(addr(r.stack[5]).equals(v.sender)).toBe(true);
    expect(addr(r.stack[6]).equals(v.owner)).toBe(true);
    const whitelist =
      r.stack[7].type === 'cell'
        ? Dictionary.loadDirect(Dictionary.Keys.Address(), { serialize: () => {}, parse: () => true }, r.stack[7].cell)
        : null;
    expect(
      whitelist!
        .keys()
        .map((a) => a.toRawString())
        .sort(),
    ).toEqual(v.whitelist.map((a) => a.toRawString()).sort());
    expect(int((await devnet.runGetMethod(v.address, 'seqno', [])).stack[0])).toBe(2n);
    const bobTxs = await devnet.getAccountTransactions(v.relayed.to, (await devnet.getAccountState(v.relayed.to)).lastTransaction!, 50);
    expect(
      bobTxs.some(
        (t) =>
          t.tx.inMessage?.info.src?.toString() === v.address.toString() &&
          t.tx.inMessage.info.type === 'internal' &&
          t.tx.inMessage.info.value.coins === v.relayed.value,
      ),
    ).toBe(true);
  });

  it('the devnet vesting, multisig and order codes are their FunC sources compiled', async () => {
    const dir = fileURLToPath(new URL('../contracts/', import.meta.url));
    const cases = [
      ['vesting-wallet.fc', contractCodes.vestingWalletCodeHash],
      ['multisig.fc', contractCodes.multisigCodeHash],
      ['multisig-order.fc', contractCodes.multisigOrderCodeHash],
      ['dns-root.fc', contractCodes.dnsRootCodeHash],
      ['dns-collection.fc', contractCodes.dnsCollectionCodeHash],
      ['dns-item.fc', contractCodes.devnetDnsItemCodeHash],
    ] as const;
    for (const [file, hash] of cases) {
      const compiled = await compileFunc({ targets: [file], sources: (p: string) => readFileSync(dir + p, 'utf8') });
      expect(compiled.status, file).toBe('ok');
      expect(
        Cell.fromBase64((compiled as { codeBoc: string }).codeBoc)
          .hash()
          .toString('hex'),
        file,
      ).toBe(hash);
    }
    expect(Cell.fromBase64(contractCodes.multisigCodeBoc).hash().toString('hex')).toBe(contractCodes.multisigCodeHash);
    expect(Cell.fromBase64(contractCodes.multisigOrderCodeBoc).hash().toString('hex')).toBe(contractCodes.multisigOrderCodeHash);
    expect(Cell.fromBase64(contractCodes.vestingWalletCodeBoc).hash().toString('hex')).toBe(contractCodes.vestingWalletCodeHash);
    expect(Cell.fromBase64(contractCodes.dnsRootCodeBoc).hash().toString('hex')).toBe(contractCodes.dnsRootCodeHash);
    expect(Cell.fromBase64(contractCodes.dnsCollectionCodeBoc).hash().toString('hex')).toBe(contractCodes.dnsCollectionCodeHash);
    expect(Cell.fromBase64(contractCodes.devnetDnsItemCodeBoc).hash().toString('hex')).toBe(contractCodes.devnetDnsItemCodeHash);
  });

  it('runs a 2-of-2 multisig: an order executed after two approvals, a proposed one pending', async () => {
    const m = seed.multisig;
    const data = await devnet.runGetMethod(m.address, 'get_multisig_data', []);
    expect(data.exitCode).toBe(0);
    expect(int(data.stack[0])).toBe(2n);
    expect(int(data.stack[1])).toBe(2n);
    for (const order of m.orders) {
      const at = await devnet.runGetMethod(m.address, 'get_order_address', [{ type: 'int', value: order.seqno }]);
      expect(addr(at.stack[0]).equals(order.address)).toBe(true);
      const o = await devnet.runGetMethod(order.address, 'get_order_data', []);
      expect(o.exitCode).toBe(0);
      expect(addr(o.stack[0]).equals(m.address)).toBe(true);
      expect(int(o.stack[1])).toBe(order.seqno);
      expect(int(o.stack[3])).toBe(order.executed ? -1n : 0n);
      expect(int(o.stack[6])).toBe(order.executed ? 2n : 0n);
    }
    const carol = m.pays.to;
    const txs = await devnet.getAccountTransactions(carol, (await devnet.getAccountState(carol)).lastTransaction!, 50);
    expect(
      txs.some(
        (t) =>
          t.tx.inMessage?.info.src?.toString() === m.address.toString() &&
          t.tx.inMessage.info.type === 'internal' &&
          t.tx.inMessage.info.value.coins === m.pays.value,
      ),
    ).toBe(true);
  });

  it('sends an encrypted comment and a transfer that bounces', async () => {
    const bobState = await devnet.getAccountState(seed.encryptedComment.to);
    const bobTxs = await devnet.getAccountTransactions(seed.encryptedComment.to, bobState.lastTransaction!, 50);
    const encrypted = bobTxs.filter(
      (t) =>
        t.tx.inMessage?.info.src?.toString() === seed.encryptedComment.from.toString() &&
        t.tx.inMessage.body.beginParse().preloadUint(32) === 0x2167da4b,
    );
    expect(encrypted).toHaveLength(1);
    const from = await devnet.getAccountState(seed.bounced.from);
    const txs = await devnet.getAccountTransactions(seed.bounced.from, from.lastTransaction!, 5);
    const back = txs.find((t) => t.tx.inMessage?.info.type === 'internal' && t.tx.inMessage.info.bounced);
    expect(back?.tx.inMessage?.info.src?.toString()).toBe(seed.bounced.to.toString());
    expect((await devnet.getAccountState(seed.bounced.to)).status).not.toBe('active');
  });

  it('spreads the activity over several blocks and can run again', async () => {
    const first = seed.lastBlock.seqno;
    expect(first).toBeGreaterThanOrEqual(5);
    const again = await devnet.seed();
    expect(again.lastBlock.seqno).toBeGreaterThan(first);
    expect(again.jetton.minter.equals(seed.jetton.minter)).toBe(false);
    expect((await devnet.getAccountState(again.nft.item)).status).toBe('active');
  });
});
