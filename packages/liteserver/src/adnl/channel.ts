import { createCipheriv, createDecipheriv, createHash, randomBytes, type Cipher, type Decipher } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { adnlKeyId, adnlSharedSecret, randomEd25519, type Ed25519KeyPair } from './keys.js';

/**
 * ADNL over TCP: a 256-byte handshake that hands the server 160 random bytes encrypted with the x25519 secret, then
 * two AES-256-CTR streams keyed from those bytes carrying frames `len:u32le ‖ nonce[32] ‖ payload ‖ sha256(nonce ‖
 * payload)`. The same framing serves the client and the server side (only the key halves swap).
 */

/** Frames outside 64 bytes .. 16 MiB are a protocol violation (the C++ node's limits). */
const MIN_FRAME = 64;
const MAX_FRAME = 1 << 24;
const HANDSHAKE_SIZE = 256;

export class AdnlError extends Error {
  override name = 'AdnlError';
}

export interface AdnlChannelEvents {
  packet: [payload: Buffer];
  close: [reason: Error | null];
}

/** An established ADNL-TCP channel: send() payloads, receive 'packet' events; 'close' once. */
export class AdnlChannel extends EventEmitter<AdnlChannelEvents> {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private closed = false;
  /** Time of the last byte received (for keepalive decisions). */
  lastReceivedAt = Date.now();

  constructor(
    readonly socket: Socket,
    private readonly tx: Cipher,
    private readonly rx: Decipher,
    pending?: Buffer,
  ) {
    super();
    socket.on('data', (data) => this.onData(data));
    socket.on('close', () => this.finish(null));
    socket.on('error', (err) => this.finish(err));
    if (pending && pending.length > 0) queueMicrotask(() => this.onData(pending));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(payload: Buffer): void {
    if (this.closed) throw new AdnlError('ADNL channel is closed');
    const nonce = randomBytes(32);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(64 + payload.length, 0);
    const checksum = createHash('sha256').update(nonce).update(payload).digest();
    this.socket.write(Buffer.concat([this.tx.update(header), this.tx.update(nonce), this.tx.update(payload), this.tx.update(checksum)]));
  }

  close(reason: Error | null = null): void {
    this.finish(reason);
    this.socket.destroy();
  }

  private finish(reason: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', reason);
  }

  private onData(data: Buffer): void {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    // Decrypt in arrival order (a stream cipher) and keep chunks: joined only when a whole frame is there, so a big
    // packet arriving in many pieces costs linear time, not quadratic.
    const plain = this.rx.update(data);
    this.chunks.push(plain);
    this.buffered += plain.length;
    try {
      for (;;) {
        if (this.buffered < 4) return;
        const head = this.peek(4);
        const size = head.readUInt32LE(0);
        if (size < MIN_FRAME || size > MAX_FRAME) throw new AdnlError(`ADNL frame of ${size} bytes is out of bounds`);
        if (this.buffered < 4 + size) return;
        const frame = this.take(4 + size);
        const nonce = frame.subarray(4, 36);
        const payload = frame.subarray(36, 4 + size - 32);
        const checksum = frame.subarray(4 + size - 32);
        if (!createHash('sha256').update(nonce).update(payload).digest().equals(checksum))
          throw new AdnlError('ADNL frame checksum mismatch');
        this.emit('packet', payload);
        if (this.closed) return;
      }
    } catch (err) {
      this.close(err as Error);
    }
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0].subarray(0, n);
    return Buffer.concat(this.chunks).subarray(0, n);
  }

  private take(n: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = joined.subarray(0, n);
    const rest = joined.subarray(n);
    this.chunks.length = 0;
    if (rest.length > 0) this.chunks.push(rest);
    this.buffered = rest.length;
    return out;
  }
}

function ciphers(params: Buffer, side: 'client' | 'server'): { tx: Cipher; rx: Decipher } {
  const a = { key: params.subarray(0, 32), iv: params.subarray(64, 80) };
  const b = { key: params.subarray(32, 64), iv: params.subarray(80, 96) };
  const [txKey, rxKey] = side === 'server' ? [a, b] : [b, a];
  return { tx: createCipheriv('aes-256-ctr', txKey.key, txKey.iv), rx: createDecipheriv('aes-256-ctr', rxKey.key, rxKey.iv) };
}

function handshakeCipher(shared: Buffer, hash: Buffer): { key: Buffer; iv: Buffer } {
  return {
    key: Buffer.concat([shared.subarray(0, 16), hash.subarray(16, 32)]),
    iv: Buffer.concat([hash.subarray(0, 4), shared.subarray(20, 32)]),
  };
}

export interface ConnectOptions {
  host: string;
  port: number;
  /** The server's ed25519 public key (from the global config). */
  serverKey: Buffer;
  /** Connect and handshake deadline (default 5 s). */
  timeoutMs?: number;
}

/** Opens a client channel: TCP connect, handshake, and the server's empty confirmation packet. */
export function connectAdnl(opts: ConnectOptions): Promise<AdnlChannel> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let channel: AdnlChannel | undefined;
    const socket = connect({ host: opts.host, port: opts.port });
    socket.setNoDelay(true);
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      channel?.close(err);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(new AdnlError(`ADNL connect to ${opts.host}:${opts.port} timed out`)), opts.timeoutMs ?? 5000);
    socket.once('error', fail);
    socket.once('connect', () => {
      try {
        const ours = randomEd25519();
        const params = randomBytes(160);
        const hash = createHash('sha256').update(params).digest();
        const { key, iv } = handshakeCipher(adnlSharedSecret(ours, opts.serverKey), hash);
        const encrypted = createCipheriv('aes-256-ctr', key, iv).update(params);
        const { tx, rx } = ciphers(params, 'client');
        channel = new AdnlChannel(socket, tx, rx);
        socket.removeListener('error', fail);
        channel.once('packet', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(channel!);
        });
        channel.once('close', (reason) =>
          fail(reason ?? new AdnlError(`ADNL server ${opts.host}:${opts.port} closed during the handshake`)),
        );
        socket.write(Buffer.concat([adnlKeyId(opts.serverKey), ours.publicKey, hash, encrypted]));
      } catch (err) {
        fail(err as Error);
      }
    });
  });
}

export interface AdnlServerOptions {
  key: Ed25519KeyPair;
  /** Handshake read deadline (default 10 s). */
  handshakeTimeoutMs?: number;
}

/** The server side: accepts handshakes for its key and emits a channel per client. */
export class AdnlServer extends EventEmitter<{ channel: [AdnlChannel] }> {
  readonly server: Server;
  private readonly keyId: Buffer;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly opts: AdnlServerOptions) {
    super();
    this.keyId = adnlKeyId(opts.key.publicKey);
    this.server = createServer((socket) => this.accept(socket));
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.removeListener('error', reject);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  /** Stops listening and drops every connection. */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), this.opts.handshakeTimeoutMs ?? 10_000);
    const onData = (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      if (buffered.length < HANDSHAKE_SIZE) return;
      socket.removeListener('data', onData);
      clearTimeout(timer);
      try {
        const hs = buffered.subarray(0, HANDSHAKE_SIZE);
        if (!hs.subarray(0, 32).equals(this.keyId)) throw new AdnlError('handshake for another key');
        const hash = hs.subarray(64, 96);
        const { key, iv } = handshakeCipher(adnlSharedSecret(this.opts.key, hs.subarray(32, 64)), hash);
        const params = createDecipheriv('aes-256-ctr', key, iv).update(hs.subarray(96, 256));
        if (!createHash('sha256').update(params).digest().equals(hash)) throw new AdnlError('handshake checksum mismatch');
        const { tx, rx } = ciphers(params, 'server');
        const channel = new AdnlChannel(socket, tx, rx, buffered.subarray(HANDSHAKE_SIZE));
        channel.send(Buffer.alloc(0));
        this.emit('channel', channel);
      } catch {
        socket.destroy();
      }
    };
    socket.on('data', onData);
  }
}
