import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readBoxedAdnlMessage, TL_ID, TlReader, TlWriter, writeBoxedAdnlMessage, type TlFunction } from '@tongate/liteserver-tl';
import { connectAdnl, type AdnlChannel } from '../adnl/channel.js';
import { LiteServerError, LiteTransportError } from '../errors.js';

export interface LiteConnectionOptions {
  host: string;
  port: number;
  serverKey: Buffer;
  connectTimeoutMs?: number;
  /** tcp.ping interval (default 5 s). The C++ server drops connections silent for 60 s. */
  pingIntervalMs?: number;
  /** Close when nothing at all was received for this long (default 20 s): the peer is gone. */
  silenceTimeoutMs?: number;
}

interface Pending {
  resolve(answer: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export interface QueryOptions {
  timeoutMs: number;
  /** Prefix liteServer.waitMasterchainSeqno: the server waits (≤ timeout) until it has this masterchain block. */
  waitMasterchainSeqno?: number;
}

/** One persistent liteserver connection: queries by id over ADNL, keepalive pings, per-query timeouts. */
export class LiteConnection extends EventEmitter<{ close: [Error | null] }> {
  private readonly pending = new Map<string, Pending>();
  private readonly pingTimer: NodeJS.Timeout;

  private constructor(
    private readonly channel: AdnlChannel,
    opts: LiteConnectionOptions,
  ) {
    super();
    channel.on('packet', (p) => this.onPacket(p));
    channel.once('close', (reason) => this.onClose(reason));
    const interval = opts.pingIntervalMs ?? 5000;
    const silence = opts.silenceTimeoutMs ?? 20_000;
    this.pingTimer = setInterval(() => {
      if (Date.now() - channel.lastReceivedAt > silence) {
        channel.close(new LiteTransportError(`no data from the liteserver for ${silence} ms`));
        return;
      }
      const ping = new TlWriter(16);
      ping.int(TL_ID['tcp.ping']);
      ping.raw(randomBytes(8));
      if (!channel.isClosed) channel.send(ping.finish());
    }, interval);
    this.pingTimer.unref();
  }

  static async open(opts: LiteConnectionOptions): Promise<LiteConnection> {
    const channel = await connectAdnl({ host: opts.host, port: opts.port, serverKey: opts.serverKey, timeoutMs: opts.connectTimeoutMs });
    return new LiteConnection(channel, opts);
  }

  get isClosed(): boolean {
    return this.channel.isClosed;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Runs one liteServer function; resolves with its decoded result or rejects with LiteServerError / LiteTransportError. */
  async query<P, R>(fn: TlFunction<P, R>, params: P, opts: QueryOptions): Promise<R> {
    const answer = await this.queryRaw(fn, params, opts);
    const r = new TlReader(answer);
    if (answer.length >= 4 && answer.readUInt32LE(0) === TL_ID['liteServer.error']) {
      r.uint();
      const code = r.int();
      throw new LiteServerError(code, r.string());
    }
    const result = fn.readResult(r);
    r.end();
    return result;
  }

  private queryRaw<P>(fn: TlFunction<P, unknown>, params: P, opts: QueryOptions): Promise<Buffer> {
    if (this.channel.isClosed) return Promise.reject(new LiteTransportError('liteserver connection is closed'));
    const data = new TlWriter();
    if (opts.waitMasterchainSeqno !== undefined) {
      data.int(TL_ID['liteServer.waitMasterchainSeqno']);
      data.int(opts.waitMasterchainSeqno);
      data.int(Math.max(1, Math.min(10_000, Math.floor(opts.timeoutMs * 0.8))));
    }
    fn.write(data, params);
    const query = new TlWriter();
    query.int(TL_ID['liteServer.query']);
    query.bytes(data.finish());
    const queryId = randomBytes(32);
    const message = new TlWriter();
    writeBoxedAdnlMessage(message, { _: 'adnl.message.query', queryId, query: query.finish() });
    const key = queryId.toString('hex');
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new LiteTransportError(`${fn.name} got no answer in ${opts.timeoutMs} ms`, true));
      }, opts.timeoutMs);
      this.pending.set(key, { resolve, reject, timer });
      try {
        this.channel.send(message.finish());
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(key);
        reject(new LiteTransportError((err as Error).message));
      }
    });
  }

  close(): void {
    this.channel.close();
  }

  private onPacket(payload: Buffer): void {
    if (payload.length < 4) return; // the empty handshake confirmation
    const id = payload.readUInt32LE(0);
    if (id === TL_ID['tcp.pong']) return;
    if (id === TL_ID['tcp.ping']) {
      const pong = Buffer.from(payload);
      pong.writeUInt32LE(TL_ID['tcp.pong'], 0);
      this.channel.send(pong);
      return;
    }
    try {
      const msg = readBoxedAdnlMessage(new TlReader(payload));
      if (msg._ !== 'adnl.message.answer') return;
      const key = msg.queryId.toString('hex');
      const p = this.pending.get(key);
      if (!p) return; // answered after its timeout
      this.pending.delete(key);
      clearTimeout(p.timer);
      p.resolve(msg.answer);
    } catch (err) {
      this.channel.close(new LiteTransportError(`malformed packet from the liteserver: ${(err as Error).message}`));
    }
  }

  private onClose(reason: Error | null): void {
    clearInterval(this.pingTimer);
    const err = new LiteTransportError(`liteserver connection closed${reason ? `: ${reason.message}` : ''}`);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
    this.emit('close', reason);
  }
}
