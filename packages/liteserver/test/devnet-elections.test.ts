/**
 * A `checking` client follows a devnet liteserver across a validator set change: the devnet's elections install the
 * set its validators staked for, the round that installs it ends with a key block carrying the new config, and the
 * client proves later heads by forward links from block 0 to that key block (signed by the genesis set) and on (signed
 * by the new set, whose keys the devnet holds). About a minute of wall time: a short election cycle, blocks every
 * 500 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cell } from '@ton/core';
import { parseValidatorSet, WHOLE_SHARD } from '@tongate/chain';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { ChainLiteServer } from '../src/server/index.js';
import { LiteConnection, LiteserverChain, parseGlobalConfig } from '../src/index.js';
import { checkBlockProofChain, checkForwardLink } from '../src/proofs.js';
import { chainLink } from '../src/client/trust.js';
import * as tl from '@tongate/liteserver-tl';

const TIMING = { validatorsElectedFor: 24, electionsStartBefore: 16, electionsEndBefore: 6, stakeHeldFor: 4 };

let devnet: Devnet;
let server: ChainLiteServer;
let chain: LiteserverChain;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 500, electionTiming: TIMING });
  server = new ChainLiteServer({ chain: devnet });
  await server.listen(0);
  chain = new LiteserverChain({ network: 'testnet', config: parseGlobalConfig(await server.globalConfig()) });
  await chain.ready(5000);
});
afterAll(async () => {
  await chain?.close();
  await server?.close();
  await devnet?.close();
});

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the checking client across a devnet validator set change', () => {
  it('proves heads signed by the elected set through the key block that installed it', async () => {
    const genesisSet = (await devnet.getConfigParam(34, 0)) as Cell;
    await devnet.seed();
    // A set of more than one validator: on a busy machine an election may close before every operator has staked,
    // and elect fewer; a later one elects them all.
    const installedAt = await until('an elected set of several validators installed', 120_000, async () => {
      const last = (await devnet.getMasterchainInfo()).last.seqno;
      const p34 = await devnet.getConfigParam(34, last);
      return p34 && !p34.hash().equals(genesisSet.hash()) && parseValidatorSet(p34).list.length > 1 ? last : null;
    });
    // The round that changed param 34 ended with a key block, which later blocks name.
    const head = await until('a block past the set change', 20_000, async () => {
      const h = await devnet.getBlockHeader((await devnet.getMasterchainInfo()).last);
      return h.id.seqno > installedAt + 1 ? h : null;
    });
    expect(head.prevKeyBlockSeqno).toBeGreaterThan(0);
    const key = await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: head.prevKeyBlockSeqno });
    expect(key.isKeyBlock).toBe(true);
    const signers = (await devnet.getMasterchainBlockSignatures(head.id.seqno)).signatures;
    expect(signers.length).toBeGreaterThan(1);
    // The client follows: its head is proven past the change, and its answers there too.
    const followed = await until('the client at the head', 20_000, async () => {
      const info = await chain.getMasterchainInfo();
      return info.last.seqno >= head.id.seqno ? info : null;
    });
    expect(chain.health()[0].status).toBe('ready');
    expect(followed.last.rootHash.equals((await devnet.getBlockHeader(followed.last)).id.rootHash)).toBe(true);
    const state = await chain.getAccountState(devnet.faucet.address, followed.last.seqno);
    expect(state.balance).toBe((await devnet.getAccountState(devnet.faucet.address, followed.last.seqno)).balance);

    // The proof chain from block 0 runs through the key block; a link that skips it names the wrong validators.
    const conn = await LiteConnection.open({ host: '127.0.0.1', port: server.port, serverKey: server.key.publicKey });
    try {
      const zero = (await devnet.getMasterchainInfo()).init;
      const proof = await conn.query(
        tl.liteServerGetBlockProof,
        { mode: 1, knownBlock: { ...zero }, targetBlock: { ...head.id } },
        { timeoutMs: 10_000 },
      );
      const links = proof.steps.map(chainLink).map((l) => {
        if (l._ !== 'forward') throw new Error('expected forward links');
        return l;
      });
      expect(links.map((l) => l.to.seqno)).toContain(key.id.seqno);
      expect(links.at(-1)!.to.seqno).toBe(head.id.seqno);
      checkBlockProofChain(zero, head.id, links);
      const skipping = { ...links.at(-1)!, from: links[0].from, configProof: links[0].configProof };
      expect(() => checkForwardLink(skipping)).toThrow(/liteserver proof rejected/);
    } finally {
      conn.close();
    }
  }, 200_000);
});
