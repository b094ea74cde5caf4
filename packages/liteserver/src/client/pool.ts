import type { TlFunction } from '@tongate/liteserver-tl';
import * as tl from '@tongate/liteserver-tl';
import { ChainError } from '@tongate/chain';
import type { LiteserverEndpoint, ZeroState } from '../config.js';
import { LS_CODE, LiteServerError, LiteTransportError } from '../errors.js';
import { LiteConnection } from './connection.js';
import { isProofRejection } from '../proofs.js';
import type { LiteQuery } from './trust.js';

/**
 * The liteserver pool: one persistent connection per server, each server's head tracked, the fastest healthy server
 * chosen per query, failures retried elsewhere within one deadline. Rules (research-liteserver.md §6):
 * - a server whose zero state differs from the config's is refused (wrong network);
 * - a server more than `maxLagBlocks` behind the best head, or whose head is older than `maxLagSeconds`, is skipped;
 * - transport errors, timeouts, -503/652 (timeouts) and 651 (not ready / not in db) move to another server, at most
 *   `maxAttempts` tries in all inside `deadlineMs`; -400 and other deterministic answers are final (never retried);
 * - a Session pins a request's dependent queries to one server; when it must move, queries carry
 *   waitMasterchainSeqno for the block they depend on.
 */

export interface PoolOptions {
  servers: LiteserverEndpoint[];
  zeroState?: ZeroState | null;
  /** One query's timeout on one server (default 5 s; the liteserver's own is 4.5 s). */
  queryTimeoutMs?: number;
  /** Whole-call deadline across retries (default 10 s). */
  deadlineMs?: number;
  maxAttempts?: number;
  headPollMs?: number;
  maxLagBlocks?: number;
  maxLagSeconds?: number;
  connectTimeoutMs?: number;
  pingIntervalMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Blocks older than the head by more than this go to archival servers first (default 10 000, ~14 h). */
  archiveAfterBlocks?: number;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /**
   * Proves a head a server reports, through that server (HeadTrust.verify under `checking`), and gives its gen_utime
   * from the proven header (null when the proof shows none). A server's head counts (for health, lag and routing) only
   * once proven, with that time rather than the server's word; a server whose head is refused as a lie is refused for
   * good.
   */
  verifyHead?: (query: LiteQuery, head: tl.TonNodeBlockIdExt) => Promise<number | null>;
}

export type ServerStatus = 'connecting' | 'ready' | 'down' | 'refused';

export interface ServerHealth {
  name: string;
  status: ServerStatus;
  healthy: boolean;
  lagging: boolean;
  headSeqno: number;
  headUtime: number;
  latencyMs: number;
  inFlight: number;
  errors: number;
  timeouts: number;
  lastErrorCode: number | null;
  /** Connections established after the first one. */
  reconnects: number;
  /** Whether the server has old blocks (it found masterchain block 3); null until probed. */
  archival: boolean | null;
}

class Server {
  conn: LiteConnection | null = null;
  status: ServerStatus = 'connecting';
  head: { id: tl.TonNodeBlockIdExt; utime: number; seenAt: number } | null = null;
  latencyMs = 0;
  errors = 0;
  timeouts = 0;
  lastErrorCode: number | null = null;
  connects = 0;
  archival: boolean | null = null;
  archivalCheckedAt = 0;
  /** A head check in flight (one at a time per server). */
  verifying = false;
  backoffMs: number;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly endpoint: LiteserverEndpoint,
    reconnectMinMs: number,
  ) {
    this.backoffMs = reconnectMinMs;
  }

  observe(ms: number): void {
    this.latencyMs = this.latencyMs === 0 ? ms : this.latencyMs * 0.8 + ms * 0.2;
  }
}

export interface CallOptions {
  /** Masterchain seqno the query depends on (waited for on servers that may not have it yet). */
  mcSeqno?: number;
  /** Absolute deadline (ms since epoch) shared by a request's queries. */
  deadline?: number;
}

const ARCHIVE_PROBE_SEQNO = 3;
const ARCHIVE_PROBE_INTERVAL_MS = 5 * 60_000;
const RETRYABLE_CODES: ReadonlySet<number> = new Set([LS_CODE.TIMEOUT, LS_CODE.TIMEOUT_ERROR, LS_CODE.NOT_READY]);

export class LitePool {
  private readonly servers: Server[];
  private readonly o: Required<Omit<PoolOptions, 'zeroState' | 'logger' | 'servers' | 'verifyHead'>>;
  private readonly headTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.o = {
      queryTimeoutMs: opts.queryTimeoutMs ?? 5000,
      deadlineMs: opts.deadlineMs ?? 10_000,
      maxAttempts: opts.maxAttempts ?? 3,
      headPollMs: opts.headPollMs ?? 1000,
      maxLagBlocks: opts.maxLagBlocks ?? 2,
      maxLagSeconds: opts.maxLagSeconds ?? 30,
      connectTimeoutMs: opts.connectTimeoutMs ?? 5000,
      pingIntervalMs: opts.pingIntervalMs ?? 5000,
      reconnectMinMs: opts.reconnectMinMs ?? 1000,
      reconnectMaxMs: opts.reconnectMaxMs ?? 30_000,
      archiveAfterBlocks: opts.archiveAfterBlocks ?? 10_000,
    };
    this.servers = opts.servers.map((e) => new Server(e, this.o.reconnectMinMs));
    for (const s of this.servers) void this.connect(s);
    this.headTimer = setInterval(() => this.pollHeads(), this.o.headPollMs);
    this.headTimer.unref();
  }

  /** Resolves when some server is healthy, or after `timeoutMs` (then queries answer 503 until one is). */
  async ready(timeoutMs = this.o.connectTimeoutMs): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.healthyServers().length > 0) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.healthyServers().length > 0;
  }

  get deadlineMs(): number {
    return this.o.deadlineMs;
  }

  /** The best head among ready servers (the consensus head). */
  consensusSeqno(): number {
    let best = -1;
    for (const s of this.servers) if (s.status === 'ready' && s.head) best = Math.max(best, s.head.id.seqno);
    return best;
  }

  private consensusUtime(): number {
    let best = 0;
    for (const s of this.servers) if (s.status === 'ready' && s.head) best = Math.max(best, s.head.utime);
    return best;
  }

  /** Behind the consensus head by more than maxLagBlocks blocks or maxLagSeconds of chain time. (A chain that stalls
   * as a whole stalls every server alike: that is not a reason to drop them all.) */
  private isLagging(s: Server, consensus: number, consensusUtime = this.consensusUtime()): boolean {
    if (!s.head) return true;
    if (s.head.id.seqno < consensus - this.o.maxLagBlocks) return true;
    return consensusUtime - s.head.utime > this.o.maxLagSeconds;
  }

  private healthyServers(): Server[] {
    const consensus = this.consensusSeqno();
    const utime = this.consensusUtime();
    return this.servers.filter((s) => s.status === 'ready' && s.conn && !s.conn.isClosed && !this.isLagging(s, consensus, utime));
  }

  health(): ServerHealth[] {
    const consensus = this.consensusSeqno();
    return this.servers.map((s) => {
      const lagging = s.status === 'ready' && this.isLagging(s, consensus);
      return {
        name: s.endpoint.name,
        status: s.status,
        healthy: s.status === 'ready' && !lagging,
        lagging,
        headSeqno: s.head?.id.seqno ?? -1,
        headUtime: s.head?.utime ?? 0,
        latencyMs: Math.round(s.latencyMs * 10) / 10,
        inFlight: s.conn?.inFlight ?? 0,
        errors: s.errors,
        timeouts: s.timeouts,
        lastErrorCode: s.lastErrorCode,
        reconnects: Math.max(0, s.connects - 1),
        archival: s.archival,
      };
    });
  }

  /** Fastest healthy server not yet tried: EWMA latency with a penalty per query in flight. */
  private pick(exclude: ReadonlySet<Server>, mcSeqno?: number): Server | null {
    let best: Server | null = null;
    let bestScore = Infinity;
    // An old block goes to archival servers first; others have probably dropped it.
    const old = mcSeqno !== undefined && mcSeqno < this.consensusSeqno() - this.o.archiveAfterBlocks;
    for (const s of this.healthyServers()) {
      if (exclude.has(s)) continue;
      // A server known to have the block the query depends on goes first: no wait on it.
      const behind = mcSeqno !== undefined && s.head !== null && s.head.id.seqno < mcSeqno ? 1000 : 0;
      const notArchival = old && s.archival !== true ? 1000 : 0;
      const score = s.latencyMs + (s.conn?.inFlight ?? 0) * 2 + behind + notArchival;
      if (score < bestScore) {
        best = s;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * Waits (at most `timeoutMs`) until a server has masterchain block `seqno`: one getMasterchainInfo held by the
   * fastest healthy server under the liteServer.waitMasterchainSeqno prefix, so a follower learns of a new block
   * when the server has it rather than a poll interval later. Resolves true once the block is there, false on a
   * timeout or a failure (the caller reads the head as usual then); a failing server is not waited on again at once.
   */
  async waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const best = this.bestHead();
    if (best && best.seqno >= seqno) return true;
    const server = this.pick(new Set(), seqno);
    if (!server?.conn) {
      await new Promise((r) => setTimeout(r, Math.min(timeoutMs, 100)));
      return false;
    }
    try {
      // The server holds the query up to 0.8 of this (queryRaw): it answers "timeout" before our own deadline.
      const info = await server.conn.query(
        tl.liteServerGetMasterchainInfo,
        {},
        { timeoutMs: Math.max(1, Math.min(timeoutMs, this.o.queryTimeoutMs)), waitMasterchainSeqno: seqno },
      );
      return info.last.seqno >= seqno;
    } catch {
      // A timeout is the normal "not yet"; anything else waits out a short pause so that a broken server is not hammered.
      const left = deadline - Date.now();
      if (left > 0) await new Promise((r) => setTimeout(r, Math.min(left, 100)));
      return false;
    }
  }

  /** Runs a query with failover. `pinned` (a Session's server) is tried first. */
  async call<P, R>(fn: TlFunction<P, R>, params: P, opts: CallOptions = {}, session?: Session): Promise<R> {
    if (this.closed) throw new ChainError('unavailable', 'liteserver pool is closed');
    const deadline = opts.deadline ?? Date.now() + this.o.deadlineMs;
    const tried = new Set<Server>();
    let lastError: unknown = null;
    for (let attempt = 0; attempt < this.o.maxAttempts; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const pinned = session?.server;
      const server = pinned && !tried.has(pinned) && this.healthyServers().includes(pinned) ? pinned : this.pick(tried, opts.mcSeqno);
      if (!server) break;
      tried.add(server);
      // Wait on a server that is behind for a block another server already has; a block no server has yet is
      // answered at once ("not found"), as it may never come.
      const waitSeqno =
        opts.mcSeqno !== undefined && opts.mcSeqno <= this.consensusSeqno() && (!server.head || server.head.id.seqno < opts.mcSeqno)
          ? opts.mcSeqno
          : undefined;
      const started = performance.now();
      try {
        const result = await server.conn!.query(fn, params, {
          timeoutMs: Math.min(this.o.queryTimeoutMs, remaining),
          waitMasterchainSeqno: waitSeqno,
        });
        server.observe(performance.now() - started);
        if (session) session.server = server;
        return result;
      } catch (err) {
        lastError = err;
        if (err instanceof LiteServerError) {
          server.lastErrorCode = err.code;
          server.observe(performance.now() - started);
          if (!RETRYABLE_CODES.has(err.code)) throw mapLiteError(fn.name, err);
          server.errors++;
          this.opts.logger?.info(
            { server: server.endpoint.name, code: err.code, err: err.message, query: fn.name },
            'liteserver: retrying elsewhere',
          );
        } else if (err instanceof LiteTransportError) {
          server.errors++;
          if (err.timeout) {
            server.timeouts++;
            // A slow server sinks in the ranking without being dropped.
            server.observe(performance.now() - started);
          }
          this.opts.logger?.info(
            { server: server.endpoint.name, err: err.message, query: fn.name },
            'liteserver: transport failure, retrying elsewhere',
          );
        } else {
          throw mapLiteError(fn.name, err);
        }
        if (session?.server === server) session.server = null;
      }
    }
    if (lastError === null) {
      if (Date.now() >= deadline) throw new ChainError('timeout', `${fn.name}: deadline passed before any liteserver answered`);
      throw new ChainError('unavailable', `no healthy liteserver (${this.servers.length} configured)`);
    }
    throw mapLiteError(fn.name, lastError);
  }

  /** Sends to up to `fanout` healthy servers at once; the first success wins, else the first deterministic error. */
  async broadcast<P, R>(fn: TlFunction<P, R>, params: P, fanout = 3): Promise<R> {
    const targets = [...this.healthyServers()].sort((a, b) => a.latencyMs - b.latencyMs).slice(0, fanout);
    if (targets.length === 0) throw new ChainError('unavailable', `no healthy liteserver (${this.servers.length} configured)`);
    const attempts = targets.map((s) => s.conn!.query(fn, params, { timeoutMs: this.o.queryTimeoutMs }));
    try {
      return await Promise.any(attempts);
    } catch (err) {
      const errors = (err as AggregateError).errors ?? [err];
      const deterministic = errors.find((e) => e instanceof LiteServerError && !RETRYABLE_CODES.has(e.code));
      throw mapLiteError(fn.name, deterministic ?? errors[0]);
    }
  }

  session(): Session {
    return new Session(this);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.headTimer);
    for (const s of this.servers) {
      if (s.timer) clearTimeout(s.timer);
      s.conn?.close();
      s.status = 'down';
    }
  }

  // ---------------------------------------------------------------- connections and heads

  private async connect(s: Server): Promise<void> {
    if (this.closed) return;
    s.status = 'connecting';
    try {
      const conn = await LiteConnection.open({
        host: s.endpoint.host,
        port: s.endpoint.port,
        serverKey: s.endpoint.publicKey,
        connectTimeoutMs: this.o.connectTimeoutMs,
        pingIntervalMs: this.o.pingIntervalMs,
      });
      if (this.closed) return conn.close();
      const info = await conn.query(tl.liteServerGetMasterchainInfoExt, { mode: 0 }, { timeoutMs: this.o.queryTimeoutMs });
      const z = this.opts.zeroState;
      if (z && (info.init.workchain !== z.workchain || !info.init.rootHash.equals(z.rootHash) || !info.init.fileHash.equals(z.fileHash))) {
        conn.close();
        s.status = 'refused';
        this.opts.logger?.warn(
          { server: s.endpoint.name, zeroState: info.init.rootHash.toString('hex') },
          'liteserver refused: its zero state is not the configured network',
        );
        return;
      }
      let utime = info.lastUtime;
      if (this.opts.verifyHead) {
        try {
          utime = (await this.opts.verifyHead(this.queryOn(conn), info.last)) ?? utime;
        } catch (err) {
          conn.close();
          if (isProofRejection(err)) return this.refuseForHead(s, err);
          throw err;
        }
        if (this.closed) return conn.close();
      }
      s.conn = conn;
      s.head = { id: info.last, utime, seenAt: Date.now() };
      s.status = 'ready';
      s.connects++;
      s.backoffMs = this.o.reconnectMinMs;
      this.opts.logger?.info({ server: s.endpoint.name, seqno: info.last.seqno, version: info.version }, 'liteserver connected');
      this.probeArchival(s);
      conn.once('close', (reason) => {
        if (s.conn !== conn) return;
        s.conn = null;
        s.status = 'down';
        this.opts.logger?.warn({ server: s.endpoint.name, err: reason?.message }, 'liteserver connection lost');
        this.scheduleReconnect(s);
      });
    } catch (err) {
      s.status = 'down';
      s.errors++;
      this.opts.logger?.warn({ server: s.endpoint.name, err: (err as Error).message }, 'liteserver connect failed');
      this.scheduleReconnect(s);
    }
  }

  private queryOn(conn: LiteConnection): LiteQuery {
    return (fn, params) => conn.query(fn, params, { timeoutMs: this.o.queryTimeoutMs });
  }

  /** A server whose head does not chain to the trusted block by signatures: a liar (or another chain), refused for good. */
  private refuseForHead(s: Server, err: unknown): void {
    const conn = s.conn;
    s.conn = null;
    s.head = null;
    s.status = 'refused';
    conn?.close();
    this.opts.logger?.warn(
      { server: s.endpoint.name, err: (err as Error).message },
      'liteserver refused: its masterchain head is not proven by validator signatures',
    );
  }

  private scheduleReconnect(s: Server): void {
    if (this.closed || s.status === 'refused') return;
    const delay = s.backoffMs;
    s.backoffMs = Math.min(s.backoffMs * 2, this.o.reconnectMaxMs);
    s.timer = setTimeout(() => void this.connect(s), delay);
    s.timer.unref();
  }

  /** Archival = it still has masterchain block 3 (toncenter's test), re-probed every 5 minutes. */
  private probeArchival(s: Server): void {
    const conn = s.conn;
    if (!conn) return;
    s.archivalCheckedAt = Date.now();
    conn
      .query(
        tl.liteServerLookupBlock,
        { mode: 1, id: { workchain: -1, shard: -(2n ** 63n), seqno: ARCHIVE_PROBE_SEQNO } },
        { timeoutMs: this.o.queryTimeoutMs },
      )
      .then(() => (s.archival = true))
      .catch((err) => {
        if (err instanceof LiteServerError) s.archival = false;
      });
  }

  private pollHeads(): void {
    for (const s of this.servers) {
      if (s.status !== 'ready' || !s.conn) continue;
      if (Date.now() - s.archivalCheckedAt > ARCHIVE_PROBE_INTERVAL_MS) this.probeArchival(s);
      const conn = s.conn;
      const started = performance.now();
      conn
        .query(tl.liteServerGetMasterchainInfoExt, { mode: 0 }, { timeoutMs: this.o.queryTimeoutMs })
        .then(async (info) => {
          s.observe(performance.now() - started);
          const known = s.head?.id;
          const same =
            known &&
            known.seqno === info.last.seqno &&
            known.rootHash.equals(info.last.rootHash) &&
            known.fileHash.equals(info.last.fileHash);
          let utime = info.lastUtime;
          if (same && this.opts.verifyHead) utime = s.head!.utime;
          else if (this.opts.verifyHead) {
            // The head counts once proven; until then the server keeps its last proven one.
            if (s.verifying) return;
            s.verifying = true;
            try {
              utime = (await this.opts.verifyHead(this.queryOn(conn), info.last)) ?? utime;
            } catch (err) {
              if (isProofRejection(err) && s.conn === conn) this.refuseForHead(s, err);
              else s.errors++;
              return;
            } finally {
              s.verifying = false;
            }
            if (s.conn !== conn) return;
          }
          s.head = { id: info.last, utime, seenAt: Date.now() };
        })
        .catch((err) => {
          s.errors++;
          if (err instanceof LiteTransportError && err.timeout) s.timeouts++;
        });
    }
  }

  /** Newest head a healthy server reported (block id with hashes), or null. */
  bestHead(): tl.TonNodeBlockIdExt | null {
    let best: tl.TonNodeBlockIdExt | null = null;
    for (const s of this.healthyServers()) if (s.head && (!best || s.head.id.seqno > best.seqno)) best = s.head.id;
    return best;
  }
}

/** Dependent queries of one request: they stay on the server that answered first while it stays healthy. */
export class Session {
  server: Server | null = null;
  readonly deadline: number;

  constructor(private readonly pool: LitePool) {
    this.deadline = Date.now() + pool.deadlineMs;
  }

  call<P, R>(fn: TlFunction<P, R>, params: P, mcSeqno?: number): Promise<R> {
    return this.pool.call(fn, params, { mcSeqno, deadline: this.deadline }, this);
  }
}

const NOT_FOUND_TEXT =
  /not found|not in db|cannot find|cannot load|unknown block|no such|hash mismatch|not applied|is not in the masterchain|block .* not found/i;

/** A liteserver failure as the ChainError the front door maps to a status; the numeric code stays in the message. */
export function mapLiteError(query: string, err: unknown): ChainError {
  if (err instanceof ChainError) return err;
  if (err instanceof LiteTransportError)
    return new ChainError(err.timeout ? 'timeout' : 'unavailable', `${query}: ${err.message}`, { cause: err });
  if (err instanceof LiteServerError) {
    const text = `${err.message} (liteserver code ${err.code})`;
    if (err.code === LS_CODE.TIMEOUT || err.code === LS_CODE.TIMEOUT_ERROR) return new ChainError('timeout', text, { cause: err });
    if (query === 'liteServer.sendMessage' && err.code !== LS_CODE.FATAL) return new ChainError('refused', err.message, { cause: err });
    if (err.code === LS_CODE.NOT_READY || NOT_FOUND_TEXT.test(err.message))
      return new ChainError('not_found', err.message.replace(/^not found: /, ''), { cause: err });
    if (err.code === LS_CODE.FATAL) return new ChainError('invalid', text, { cause: err });
    return new ChainError('internal', text, { cause: err });
  }
  return new ChainError('internal', `${query}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
