import { describe, expect, it } from 'vitest';
import { StreamHub, Subscriber, parseSubscription, type StreamBatch, type TraceItem } from '../src/index.js';

const A = `0:${'A'.repeat(64)}`;
const B = `0:${'B'.repeat(64)}`;

function collect(network: 'mainnet' | 'testnet' = 'mainnet') {
  const events: { event: any; id?: number }[] = [];
  const sub = new Subscriber(network, { send: (text, id) => events.push({ event: JSON.parse(text), id }) });
  return { sub, events };
}

const trace = (finality: TraceItem['finality'], hashNorm: string, account = A, lt = '10'): TraceItem => ({
  kind: 'trace',
  finality,
  hashNorm,
  transactions: [{ account, hash: `${hashNorm}-${finality}-${lt}`, lt }],
  actions: [],
  trace: null,
});

const subscribe = (hub: StreamHub, sub: Subscriber, body: object) => hub.subscribe(sub, parseSubscription(body, { mode: 'ws' }));

describe('StreamHub', () => {
  it('sends an item again as its finality rises, never lower, and only what the subscription names', () => {
    const hub = new StreamHub();
    const { sub, events } = collect();
    subscribe(hub, sub, { types: ['transactions'], addresses: [A], min_finality: 'pending' });
    hub.publish({ network: 'mainnet', items: [trace('pending', 'h1'), trace('pending', 'h2', B)] });
    hub.publish({ network: 'mainnet', items: [trace('confirmed', 'h1')] });
    hub.publish({ network: 'mainnet', items: [trace('confirmed', 'h1')] });
    hub.publish({ network: 'mainnet', mcSeqno: 5, items: [trace('finalized', 'h1')] });
    hub.publish({ network: 'mainnet', items: [trace('confirmed', 'h1')] });
    expect(events.map((e) => [e.event.finality, e.event.trace_external_hash_norm, e.id])).toEqual([
      ['pending', 'h1', undefined],
      ['confirmed', 'h1', undefined],
      ['finalized', 'h1', 5],
    ]);
  });

  it('keeps the networks apart', () => {
    const hub = new StreamHub();
    const main = collect('mainnet');
    const test = collect('testnet');
    subscribe(hub, main.sub, { types: ['transactions'], addresses: [A], min_finality: 'pending' });
    subscribe(hub, test.sub, { types: ['transactions'], addresses: [A], min_finality: 'pending' });
    hub.publish({ network: 'testnet', items: [trace('pending', 'h1')] });
    expect(main.events).toEqual([]);
    expect(test.events).toHaveLength(1);
  });

  it('invalidates a trace once, only on connections that saw it before it was final', () => {
    const hub = new StreamHub();
    const saw = collect();
    const finalOnly = collect();
    subscribe(hub, saw.sub, { types: ['transactions'], addresses: [A], min_finality: 'pending' });
    subscribe(hub, finalOnly.sub, { types: ['transactions'], addresses: [A] });
    hub.publish({ network: 'mainnet', items: [trace('pending', 'h1')] });
    hub.publish({ network: 'mainnet', items: [{ kind: 'invalidated', hashNorm: 'h1' }] });
    hub.publish({ network: 'mainnet', items: [{ kind: 'invalidated', hashNorm: 'h1' }] });
    expect(saw.events.map((e) => e.event.type)).toEqual(['transactions', 'trace_invalidated']);
    expect(finalOnly.events).toEqual([]);
  });

  it('replays retained blocks after a resume point, and says when the window no longer reaches it', () => {
    const hub = new StreamHub({ retainBlocks: 3 });
    for (let seqno = 1; seqno <= 5; seqno++) hub.publish({ network: 'mainnet', mcSeqno: seqno, items: [trace('finalized', `h${seqno}`)] });
    expect(hub.retainedRange('mainnet')).toEqual({ oldest: 3, newest: 5 });
    const resumed = collect();
    subscribe(hub, resumed.sub, { types: ['transactions'], addresses: [A], after_mc_seqno: 3 });
    expect(resumed.events.map((e) => e.id)).toEqual([4, 5]);
    const late = collect();
    subscribe(hub, late.sub, { types: ['transactions'], addresses: [A], after_mc_seqno: 0 });
    expect(late.events[0]!.event).toEqual({ type: 'resume_gap', from_mc_seqno: 1, to_mc_seqno: 2 });
    expect(late.events.slice(1).map((e) => e.id)).toEqual([3, 4, 5]);
  });

  it('bounds the retained window by bytes too', () => {
    const batch = (seqno: number): StreamBatch => ({
      network: 'mainnet',
      mcSeqno: seqno,
      items: [{ ...trace('finalized', `h${seqno}`), transactions: [{ account: A, hash: 'x'.repeat(1000), lt: '1' }] }],
    });
    const hub = new StreamHub({ retainBlocks: 100, retainBytes: 5_000 });
    for (let seqno = 1; seqno <= 20; seqno++) hub.publish(batch(seqno));
    const range = hub.retainedRange('mainnet')!;
    expect(range.newest).toBe(20);
    expect(range.newest - range.oldest + 1).toBeLessThanOrEqual(4);
  });
});
