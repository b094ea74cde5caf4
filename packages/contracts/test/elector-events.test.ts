import { describe, expect, it } from 'vitest';
import { Address, beginCell, toNano, type Cell } from '@ton/core';
import { keyPairFromSeed, sign } from '@ton/crypto';
import type { Blockchain } from '@ton/sandbox';
import { decodeElectorData } from '../src/elector.js';
import { ELECTOR_OPS, decodeElectorMessage } from '../src/elector-messages.js';
import { electorEvent, type CarriedMessage } from '../src/elector-events.js';
import { fixtureCell } from './fixtures.js';
import { ELECTOR_ADDRESS, chainWith, dataOf } from './sandbox.js';

const code = fixtureCell('elector/code.boc.b64');
const data = fixtureCell('elector/data.boc.b64');
const config = fixtureCell('elector/config.boc.b64');
const recorded = decodeElectorData(data);
const election = recorded.election!;
const holder = Address.parseRaw('-1:' + '7a'.repeat(32));
const validatorKeys = keyPairFromSeed(Buffer.alloc(32, 9));
const adnl = BigInt('0x' + 'c4'.repeat(32));

function newStake(queryId: bigint, stakeAt: number, maxFactor: number, signer = validatorKeys.secretKey): Cell {
  const signed = beginCell()
    .storeUint(0x654c5074, 32)
    .storeUint(stakeAt, 32)
    .storeUint(maxFactor, 32)
    .storeBuffer(holder.hash)
    .storeUint(adnl, 256)
    .endCell();
  return beginCell()
    .storeUint(ELECTOR_OPS.newStake, 32)
    .storeUint(queryId, 64)
    .storeBuffer(validatorKeys.publicKey)
    .storeUint(stakeAt, 32)
    .storeUint(maxFactor, 32)
    .storeUint(adnl, 256)
    .storeRef(
      beginCell()
        .storeBuffer(sign(signed.beginParse().loadBuffer(76), signer))
        .endCell(),
    )
    .endCell();
}

/** Sends `body` with `value` from `from` to the elector; returns the event, the elector's answers and its state after. */
async function exchange(chain: Blockchain, value: bigint, body: Cell, from = holder) {
  const result = await chain.sendMessage({
    info: {
      type: 'internal',
      src: from,
      dest: ELECTOR_ADDRESS,
      value: { coins: value },
      bounce: true,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 0n,
      createdAt: chain.now!,
    },
    body,
  });
  const tx = result.transactions.find((t) => t.inMessage?.info.dest?.toString() === ELECTOR_ADDRESS.toString())!;
  const outbound: CarriedMessage[] = [...tx.outMessages.values()].map((m) => ({
    body: m.body,
    value: m.info.type === 'internal' ? m.info.value.coins : 0n,
  }));
  return { event: electorEvent(from, { body, value }, outbound), outbound, state: decodeElectorData(await dataOf(chain, ELECTOR_ADDRESS)) };
}

const open = () => chainWith(ELECTOR_ADDRESS, code, data, { now: election.electClose - 1000, config, balance: 10n ** 18n });
const pubkey = validatorKeys.publicKey.toString('hex');

describe("elector events from the recorded elector's own answers", () => {
  it('a signed stake is accepted: the member holds the value less 1 TON, confirmed or not', async () => {
    const chain = await open();
    const { event, state, outbound } = await exchange(chain, toNano('400001'), newStake(77n, election.electAt, 196608));
    expect(outbound.map((m) => decodeElectorMessage(m.body))).toEqual([{ type: 'new_stake_confirmation', queryId: 77n, comment: 0 }]);
    expect(event).toMatchObject({
      type: 'stake_accepted',
      queryId: 77n,
      amount: toNano('400000'),
      validatorPubkey: pubkey,
      electionId: election.electAt,
      maxFactor: 196608,
      reason: null,
    });
    const member = state.election!.participants.find((p) => p.validatorPubkey === pubkey)!;
    expect(member.stake).toBe(event!.amount);
    expect(member.stakeHolderAddress.equals(holder)).toBe(true);
    expect(state.election!.totalStake - election.totalStake).toBe(event!.amount);

    // Unconfirmed (query_id 0): the elector keeps the 1 TON all the same; the stake adds to the same member.
    const again = await exchange(chain, toNano('100001'), newStake(0n, election.electAt, 196608));
    expect(again.event).toMatchObject({ type: 'stake_accepted', amount: toNano('100000') });
    expect(again.state.election!.participants.find((p) => p.validatorPubkey === pubkey)!.stake).toBe(toNano('500000'));
  });

  it("rejections carry the elector's reason: bad signature 1, under 1/4096 of the total 2, wrong election 3, below min_stake 5, factor below 1.0 6", async () => {
    const chain = await open();
    const cases: [Cell, bigint, number][] = [
      [newStake(1n, election.electAt, 196608, keyPairFromSeed(Buffer.alloc(32, 1)).secretKey), toNano('400001'), 1],
      [newStake(1n, election.electAt + 1, 196608), toNano('400001'), 3],
      [newStake(1n, election.electAt, 196608), toNano('1001'), 2],
      [newStake(1n, election.electAt, 196608), toNano('100001'), 5],
      [newStake(1n, election.electAt, 65535), toNano('400001'), 6],
    ];
    for (const [body, value, reason] of cases) {
      const { event, state } = await exchange(chain, value, body);
      expect(event).toMatchObject({ type: 'stake_rejected', reason });
      expect(event!.amount > 0n && event!.amount <= value).toBe(true);
      expect(state.election!.participants.some((p) => p.validatorPubkey === pubkey)).toBe(false);
    }
  });

  it('recovering pays the whole credit; with nothing to recover there is no event', async () => {
    const chain = await open();
    const recover = beginCell().storeUint(ELECTOR_OPS.recoverStake, 32).storeUint(5, 64).endCell();
    expect((await exchange(chain, toNano('1'), recover)).event).toBeNull();

    // A stake holder the recorded state owes: recover from its address.
    const [creditor, credit] = [...recorded.credits].find(([, amount]) => amount > 0n)!;
    const { event, state } = await exchange(chain, toNano('1'), recover, Address.parseRaw('-1:' + creditor));
    expect(event).toMatchObject({ type: 'stake_recovered', queryId: 5n });
    expect(event!.amount > credit && event!.amount <= credit + toNano('1')).toBe(true);
    expect(state.credits.has(creditor)).toBe(false);
  });
});
