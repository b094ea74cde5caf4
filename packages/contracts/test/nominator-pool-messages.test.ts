import { describe, expect, it } from 'vitest';
import { Address, beginCell, toNano } from '@ton/core';
import { decodeNominatorPoolData } from '../src/nominator-pool.js';
import { NOMINATOR_POOL_OPS, decodeNominatorPoolMessage, nominatorChanges } from '../src/nominator-pool-messages.js';
import { ELECTOR_OPS } from '../src/elector-messages.js';
import { fixtureCell, fixtureJson } from './fixtures.js';
import { ELECTOR_ADDRESS, chainWith, deliver } from './sandbox.js';

const code = fixtureCell('nominator-pool/code.boc.b64');
const recorded = fixtureCell('nominator-pool/data-2.boc.b64');
const POOL = Address.parseRaw(fixtureJson('nominator-pool/expected.json')['data-2.boc.b64'].address);
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const op = (code: number) => beginCell().storeUint(code, 32).storeUint(9, 64);

describe('nominator pool messages', () => {
  it('decodes comments and ops', () => {
    expect(decodeNominatorPoolMessage(comment('d'))).toEqual({ type: 'deposit' });
    expect(decodeNominatorPoolMessage(comment('w'))).toEqual({ type: 'withdraw' });
    expect(decodeNominatorPoolMessage(comment('y' + 'AB'.repeat(32)))).toEqual({
      type: 'vote',
      support: true,
      proposalHash: 'ab'.repeat(32),
    });
    expect(decodeNominatorPoolMessage(comment('n' + 'zz'.repeat(32)))).toBeNull();
    expect(decodeNominatorPoolMessage(comment('hello'))).toBeNull();
    expect(decodeNominatorPoolMessage(op(NOMINATOR_POOL_OPS.processWithdrawRequests).endCell())).toEqual({
      type: 'process_withdraw_requests',
      queryId: 9n,
    });
    expect(decodeNominatorPoolMessage(op(NOMINATOR_POOL_OPS.validatorWithdraw).storeCoins(toNano('5')).endCell())).toEqual({
      type: 'validator_withdraw',
      queryId: 9n,
      amount: toNano('5'),
    });
    expect(decodeNominatorPoolMessage(op(0x12345678).endCell())).toBeNull();
  });
});

describe('nominator changes, as the pool itself makes them (recorded pool in the emulator)', () => {
  const newcomer = Address.parseRaw('0:' + 'ab'.repeat(32));
  const member = decodeNominatorPoolData(recorded).nominators[2];

  it('a deposit while staked is pending; a withdrawal while staked is a request', async () => {
    const pool = decodeNominatorPoolData(recorded);
    expect(pool.state).toBe(2);
    const chain = await chainWith(POOL, code, recorded, { now: pool.stakeAt + 1000 });
    const afterDeposit = decodeNominatorPoolData(await deliver(chain, newcomer, POOL, toNano('20001'), comment('d')));
    expect(nominatorChanges(pool, afterDeposit).map((c) => ({ ...c, address: c.address.toRawString() }))).toEqual([
      {
        address: newcomer.toRawString(),
        before: null,
        after: { amount: 0n, pendingDepositAmount: toNano('20000'), withdrawRequested: false },
      },
    ]);
    expect(afterDeposit.nominatorsCount).toBe(pool.nominatorsCount + 1);

    const afterRequest = decodeNominatorPoolData(await deliver(chain, member.address, POOL, toNano('1'), comment('w')));
    const [request] = nominatorChanges(afterDeposit, afterRequest);
    expect(request.address.equals(member.address)).toBe(true);
    expect(request.before).toEqual({ amount: member.amount, pendingDepositAmount: 0n, withdrawRequested: false });
    expect(request.after).toEqual({ amount: member.amount, pendingDepositAmount: 0n, withdrawRequested: true });
  });

  it('the returned stake activates pending deposits and shares the reward; then a withdrawal pays out and removes', async () => {
    const pool = decodeNominatorPoolData(recorded);
    const chain = await chainWith(POOL, code, recorded, { now: pool.stakeAt + 1000 });
    const staked = decodeNominatorPoolData(await deliver(chain, newcomer, POOL, toNano('20001'), comment('d')));
    const recovered = decodeNominatorPoolData(
      await deliver(
        chain,
        ELECTOR_ADDRESS,
        POOL,
        pool.stakeAmountSent + toNano('3000'),
        beginCell().storeUint(ELECTOR_OPS.recoverStakeResponse, 32).storeUint(0, 64).endCell(),
      ),
    );
    expect(recovered.state).toBe(0);
    const changes = nominatorChanges(staked, recovered);
    expect(changes).toHaveLength(staked.nominators.length);
    const activated = changes.find((c) => c.address.equals(newcomer))!;
    expect(activated.after).toEqual({ amount: toNano('20000'), pendingDepositAmount: 0n, withdrawRequested: false });
    for (const c of changes.filter((c) => !c.address.equals(newcomer))) expect(c.after!.amount > c.before!.amount).toBe(true);

    const left = decodeNominatorPoolData(await deliver(chain, member.address, POOL, toNano('1'), comment('w')));
    const [gone] = nominatorChanges(recovered, left);
    expect(gone.address.equals(member.address) && gone.after === null && gone.before!.amount > member.amount).toBe(true);
    expect(left.nominatorsCount).toBe(recovered.nominatorsCount - 1);
  });
});
