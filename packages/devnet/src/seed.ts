import { randomBytes } from 'node:crypto';
import { Address, beginCell, comment, internal, toNano, type MessageRelaxed } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { BlockIdExt, Network } from '@tongate/chain';
import type { Faucet } from './faucet.js';
import { seedPools, type PoolOperatorTarget, type PoolSeedSummary } from './seed-pools.js';
import { signerFromSeed, type Ed25519Signer } from './keys.js';
import { walletTransferBoc, type DevnetWallet } from './wallets.js';
import { seedValidators, type ValidatorsSeedContext, type ValidatorsSeedSummary } from './seed-validators.js';
import {
  jettonBurnBody,
  jettonMinterInit,
  jettonMintBody,
  jettonTransferBody,
  jettonWalletAddress,
  nftCollectionInit,
  nftItemAddress,
  nftMintBody,
  nftTransferBody,
  onchainContent,
} from './contracts/tokens.js';
import { seedDns, type DnsSeedSummary } from './seed-dns.js';
import { seedVesting, type VestingSeedSummary } from './seed-vesting.js';
import { seedMultisig, type MultisigSeedSummary } from './seed-multisig.js';
import { seedSales, type SalesSeedSummary } from './seed-sales.js';

export interface SeedSummary {
  /** Wallets created by this seed run: a v4r2, a v5r1 and a v3r2, each with its 32-byte key seed (hex). */
  wallets: { version: 'v3r2' | 'v4r2' | 'v5r1'; address: Address; secretSeedHex: string }[];
  jetton: { minter: Address; wallets: Address[]; minted: bigint; transferred: bigint; burned: bigint };
  nft: { collection: Address; item: Address; ownerAfterTransfer: Address };
  /** `.ton` domains with wallet, site, storage and next-resolver records (seed-dns.ts). */
  dns: DnsSeedSummary;
  /** A vesting wallet owned by alice and funded by the faucet (seed-vesting.ts). */
  vesting: VestingSeedSummary;
  /** A 2-of-2 multisig with an executed and a pending order (seed-multisig.ts). */
  multisig: MultisigSeedSummary;
  /** A transfer to an account that does not exist, sent bounceable: it comes back bounced to `from`. */
  bounced: { from: Address; to: Address };
  /** An encrypted-comment message (opcode 0x2167da4b) from alice to bob. */
  encryptedComment: { from: Address; to: Address };
  /** A nominator pool and a single-nominator pool with deposits and withdrawals (seed-pools.ts). */
  pools: PoolSeedSummary;
  /** A getgems sale, a getgems auction with a bid and a .ton DNS auction (seed-sales.ts). */
  sales: SalesSeedSummary;
  /** Hashes of the external messages sent, in order. */
  messages: Buffer[];
  /** The devnet validators now staking in every election; null on a chain without an elector. */
  validators: ValidatorsSeedSummary | null;
  lastBlock: BlockIdExt;
}

export interface SeedContext {
  network: Network;
  globalId: number;
  faucet: Faucet;
  sendMessage(boc: Buffer): Promise<{ hash: Buffer }>;
  produceBlock(): Promise<BlockIdExt>;
  /** Seqno of a wallet at the devnet's current (unsealed) state. */
  liveSeqno(address: Address): Promise<number>;
  startValidators: ValidatorsSeedContext['startValidators'];
  /** Starts the seeded nominator pool's operator (staking in every election); false without an elector. */
  startPoolOperator(pool: PoolOperatorTarget): boolean;
}

/** Encrypted comment (ton-marker): opcode 0x2167da4b, then the ciphertext as a snake cell. */
function encryptedCommentBody(ciphertext: Buffer) {
  return beginCell().storeUint(0x2167da4b, 32).storeBuffer(ciphertext).endCell();
}

export interface Actor {
  wallet: DevnetWallet;
  signer: Ed25519Signer;
  seqno: number;
}

/** Sends a signed transfer from an actor's wallet (next seqno) and records the message hash. */
export type SeedSend = (from: Actor, out: MessageRelaxed[]) => Promise<void>;

/**
 * Realistic activity in a few blocks: three fresh wallets (v4r2, v5r1, v3r2) funded from the faucet, transfers with comments both ways,
 * a jetton (deploy + mint, transfer with a forward payload, burn), an NFT collection (deploy + mint, transfer), two
 * `.ton` domains with records, a vesting wallet, a multisig with
 * orders, an encrypted comment and a transfer that bounces.
 * Every run uses fresh keys and content URIs, so running it again adds new contracts instead of colliding.
 */
export async function runSeed(ctx: SeedContext): Promise<SeedSummary> {
  const tag = randomBytes(4).toString('hex');
  const faucet: Actor = {
    wallet: WalletContractV4.create({ workchain: 0, publicKey: ctx.faucet.publicKey }),
    signer: signerFromSeed(ctx.faucet.secretKey),
    seqno: 0,
  };
  faucet.seqno = await ctx.liveSeqno(faucet.wallet.address);
  const seedV4 = randomBytes(32);
  const seedV5 = randomBytes(32);
  const seedV3 = randomBytes(32);
  const s3 = signerFromSeed(seedV3);
  const s4 = signerFromSeed(seedV4);
  const s5 = signerFromSeed(seedV5);
  const alice: Actor = { wallet: WalletContractV4.create({ workchain: 0, publicKey: s4.publicKey }), signer: s4, seqno: 0 };
  const bob: Actor = {
    wallet: WalletContractV5R1.create({ workchain: 0, publicKey: s5.publicKey, walletId: { networkGlobalId: ctx.globalId } }),
    signer: s5,
    seqno: 0,
  };
  const carol: Actor = { wallet: WalletContractV3R2.create({ workchain: 0, publicKey: s3.publicKey }), signer: s3, seqno: 0 };
  const messages: Buffer[] = [];
  const send: SeedSend = async (from, out) => {
    const boc = await walletTransferBoc(from.wallet, from.signer, from.seqno, out);
    const { hash } = await ctx.sendMessage(boc);
    from.seqno++;
    messages.push(hash);
  };

  // 1. Fund both wallets (they are not deployed yet: non-bounceable transfers).
  await send(faucet, [
    internal({ to: alice.wallet.address, value: toNano('100'), bounce: false, body: comment(`devnet seed ${tag}: welcome, v4r2`) }),
    internal({ to: bob.wallet.address, value: toNano('100'), bounce: false, body: comment(`devnet seed ${tag}: welcome, v5r1`) }),
    internal({ to: carol.wallet.address, value: toNano('10'), bounce: false, body: comment(`devnet seed ${tag}: welcome, v3r2`) }),
  ]);
  await ctx.produceBlock();

  // 2. Each wallet deploys itself with its first transfer, a comment to the other.
  await send(alice, [
    internal({ to: bob.wallet.address, value: toNano('1.5'), bounce: false, body: comment('hi bob, from a v4r2 wallet') }),
  ]);
  await send(bob, [
    internal({ to: alice.wallet.address, value: toNano('0.7'), bounce: true, body: comment('hi alice, from a v5r1 wallet') }),
  ]);
  await send(carol, [
    internal({ to: alice.wallet.address, value: toNano('0.3'), bounce: true, body: comment('hi alice, from a v3r2 wallet') }),
  ]);
  await ctx.produceBlock();

  // 3. Jetton: the faucet deploys a minter and mints to alice in one message. Its content is on-chain (TEP-64), so its
  // name and symbol show without fetching anything; the NFT collection below has off-chain content.
  const minter = jettonMinterInit(
    faucet.wallet.address,
    onchainContent({ name: 'Devnet Seed Jetton', symbol: 'SEED', decimals: '9', description: `devnet seed ${tag}` }),
  );
  const minted = 1_000_000n * 10n ** 9n;
  await send(faucet, [
    internal({
      to: minter.address,
      value: toNano('0.5'),
      bounce: false,
      init: minter.init,
      body: jettonMintBody({
        minter: minter.address,
        to: alice.wallet.address,
        amount: minted,
        responseTo: faucet.wallet.address,
        walletForwardValue: toNano('0.1'),
      }),
    }),
  ]);
  await ctx.produceBlock();
  const aliceJw = jettonWalletAddress(alice.wallet.address, minter.address);
  const bobJw = jettonWalletAddress(bob.wallet.address, minter.address);
  const transferred = 250_000n * 10n ** 9n;
  await send(alice, [
    internal({
      to: aliceJw,
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: transferred,
        to: bob.wallet.address,
        responseTo: alice.wallet.address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: beginCell().storeUint(0, 32).storeStringTail('jettons for bob').endCell(),
      }),
    }),
  ]);
  await ctx.produceBlock();
  const burned = 1_000n * 10n ** 9n;
  await send(bob, [
    internal({ to: bobJw, value: toNano('0.1'), bounce: true, body: jettonBurnBody({ amount: burned, responseTo: bob.wallet.address }) }),
  ]);

  // 4. NFT: the faucet deploys a collection and mints item 0 to alice; alice hands it to bob.
  const collection = nftCollectionInit(
    faucet.wallet.address,
    `https://devnet.tongate.local/nft-${tag}/collection.json`,
    `https://devnet.tongate.local/nft-${tag}/`,
  );
  await send(faucet, [
    internal({
      to: collection.address,
      value: toNano('0.5'),
      bounce: false,
      init: collection.init,
      body: nftMintBody({ index: 0n, owner: alice.wallet.address, itemValue: toNano('0.05'), contentSuffix: '0.json' }),
    }),
  ]);
  await ctx.produceBlock();
  const item = nftItemAddress(collection.address, 0n);
  await send(alice, [
    internal({
      to: item,
      value: toNano('0.1'),
      bounce: true,
      body: nftTransferBody({ newOwner: bob.wallet.address, responseTo: alice.wallet.address, forwardTonAmount: toNano('0.01') }),
    }),
  ]);
  await ctx.produceBlock();

  // 5. DNS: alice and bob each own a .ton domain with records.
  const sender = { send, produceBlock: () => ctx.produceBlock(), address: (a: Actor) => a.wallet.address };
  const dns = await seedDns(sender, faucet, alice, bob, tag);

  // 6. Vesting and multisig: the faucet funds a vesting wallet for alice, and a multisig of alice and bob.
  const vesting = await seedVesting(sender, faucet, alice, bob, carol);
  const multisig = await seedMultisig(sender, faucet, alice, bob, carol);

  // 7. An encrypted comment, and a bounceable transfer to an account that does not exist (it bounces back).
  // The encrypted comment's payload stands in for ciphertext: the index stores and classifies it, never decrypts it.
  const nowhere = new Address(0, randomBytes(32));
  await send(alice, [
    internal({ to: bob.wallet.address, value: toNano('0.2'), bounce: true, body: encryptedCommentBody(randomBytes(96)) }),
  ]);
  await send(carol, [internal({ to: nowhere, value: toNano('0.25'), bounce: true, body: comment('this one bounces') })]);

  // 8. Sales: a getgems sale, a getgems auction with a bid and a .ton DNS auction (seed-sales.ts).
  const sales = await seedSales({
    send,
    produceBlock: () => ctx.produceBlock(),
    marketplace: faucet,
    seller: alice,
    bidder: bob,
    dnsOpener: carol,
    dnsCollection: dns.collection,
  });

  // 9. Validators: their stake holder wallets are funded and they stake in every election from now on.
  const validators = await seedValidators({
    fromFaucet: (out) => send(faucet, out),
    produceBlock: () => ctx.produceBlock(),
    startValidators: ctx.startValidators,
  });
  // 10. Staking pools: a nominator pool (staking in every election when the chain has the elector) and a
  // single-nominator pool, with deposits and withdrawals.
  const pools = await seedPools(
    ctx.globalId,
    faucet,
    send,
    () => ctx.produceBlock(),
    (pool) => ctx.startPoolOperator(pool),
  );
  const lastBlock = await ctx.produceBlock();

  return {
    wallets: [
      { version: 'v4r2', address: alice.wallet.address, secretSeedHex: seedV4.toString('hex') },
      { version: 'v5r1', address: bob.wallet.address, secretSeedHex: seedV5.toString('hex') },
      { version: 'v3r2', address: carol.wallet.address, secretSeedHex: seedV3.toString('hex') },
    ],
    jetton: { minter: minter.address, wallets: [aliceJw, bobJw], minted, transferred, burned },
    nft: { collection: collection.address, item, ownerAfterTransfer: bob.wallet.address },
    dns,
    vesting,
    multisig,
    bounced: { from: carol.wallet.address, to: nowhere },
    encryptedComment: { from: alice.wallet.address, to: bob.wallet.address },
    pools,
    sales,
    messages,
    validators,
    lastBlock,
  };
}
