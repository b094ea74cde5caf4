import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sql, type Kysely, type RawBuilder } from 'kysely';

/** Column types copyRows writes, in PostgreSQL's binary COPY format. */
export type CopyType = 'text' | 'smallint' | 'int' | 'bigint' | 'bool' | 'numeric' | 'jsonb';

/**
 * Rows for `COPY … FROM STDIN (FORMAT binary)`. It travels as the one parameter of the statement copyRows builds, so
 * that a copy runs on whatever connection runs the statement (inside a Kysely transaction too); each dialect of the
 * store recognises it and streams the data instead of binding a parameter.
 */
export class CopyData {
  constructor(readonly data: Buffer) {}
}

/** Whether a compiled statement is one of copyRows': its one parameter is the copy data. */
export function copyDataOf(parameters: readonly unknown[]): CopyData | undefined {
  return parameters.length === 1 && parameters[0] instanceof CopyData ? parameters[0] : undefined;
}

/** The binary format's signature, flags and header extension length. */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const INTEGER = /^-?\d+$/;

/** A growing buffer of COPY binary data. */
class BinaryWriter {
  buf: Buffer;
  pos = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(Math.max(size, 1024));
  }
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }
  int16(v: number): void {
    this.ensure(2);
    this.pos = this.buf.writeInt16BE(v, this.pos);
  }
  int32(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeInt32BE(v, this.pos);
  }
  /** A field of UTF-8 text, after `prefix` bytes (jsonb's version byte). */
  textField(s: string, prefix?: number): void {
    const extra = prefix === undefined ? 0 : 1;
    this.ensure(4 + extra + s.length * 3);
    const start = this.pos + 4;
    if (prefix !== undefined) this.buf[start] = prefix;
    const written = this.buf.write(s, start + extra, 'utf8');
    this.buf.writeInt32BE(written + extra, this.pos);
    this.pos = start + extra + written;
  }
}

/** A value as text: strings as they are, numbers, bigints and booleans in their decimal or true/false form, objects as JSON. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function integer(v: unknown, column: string, min: bigint, max: bigint): bigint {
  const n =
    typeof v === 'bigint'
      ? v
      : typeof v === 'number' && Number.isInteger(v)
        ? BigInt(v)
        : typeof v === 'string' && INTEGER.test(v)
          ? BigInt(v)
          : null;
  if (n === null || n < min || n > max) throw new Error(`copyRows: column ${column}: ${String(v)} is not an integer in range`);
  return n;
}

/** numeric in binary: base-10000 digits, most significant first, with the weight of the first; integers only. */
function writeNumeric(w: BinaryWriter, v: unknown, column: string): void {
  const text = typeof v === 'bigint' || typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !INTEGER.test(text)) throw new Error(`copyRows: column ${column}: ${String(v)} is not an integer`);
  const negative = text.startsWith('-');
  const magnitude = text.slice(negative ? 1 : 0).replace(/^0+/, '');
  const padded = '0'.repeat((4 - (magnitude.length % 4)) % 4) + magnitude;
  const digits: number[] = [];
  for (let i = 0; i < padded.length; i += 4) digits.push(Number(padded.slice(i, i + 4)));
  const weight = digits.length - 1;
  while (digits.length > 0 && digits.at(-1) === 0) digits.pop(); // trailing zero groups are implied by the weight
  w.int32(8 + digits.length * 2);
  w.int16(digits.length);
  w.int16(digits.length === 0 ? 0 : weight);
  w.int16(negative && digits.length > 0 ? 0x4000 : 0);
  w.int16(0); // display scale: no fraction
  for (const d of digits) w.int16(d);
}

/** Rows of values → COPY binary data, each value encoded as its column's type; null and undefined are NULL. */
export function copyBinary(columns: readonly (readonly [name: string, type: CopyType])[], rows: readonly (readonly unknown[])[]): Buffer {
  const w = new BinaryWriter(rows.length * columns.length * 16 + 64);
  w.ensure(BINARY_HEADER.length);
  BINARY_HEADER.copy(w.buf, 0);
  w.pos = BINARY_HEADER.length;
  for (const row of rows) {
    w.int16(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const [name, type] = columns[i]!;
      const v = row[i];
      if (v === null || v === undefined) {
        w.int32(-1);
        continue;
      }
      switch (type) {
        case 'text':
          w.textField(asText(v));
          break;
        case 'jsonb':
          w.textField(asText(v), 1); // jsonb's binary form: version 1, then the JSON text
          break;
        case 'smallint':
          w.int32(2);
          w.int16(Number(integer(v, name, -0x8000n, 0x7fffn)));
          break;
        case 'int':
          w.int32(4);
          w.int32(Number(integer(v, name, -0x80000000n, 0x7fffffffn)));
          break;
        case 'bigint':
          w.int32(8);
          w.ensure(8);
          w.pos = w.buf.writeBigInt64BE(integer(v, name, -(1n << 63n), (1n << 63n) - 1n), w.pos);
          break;
        case 'bool': {
          const b = v === true || v === 'true' || v === 't' ? 1 : v === false || v === 'false' || v === 'f' ? 0 : null;
          if (b === null) throw new Error(`copyRows: column ${name}: ${String(v)} is not a boolean`);
          w.int32(1);
          w.ensure(1);
          w.buf[w.pos++] = b;
          break;
        }
        case 'numeric':
          writeNumeric(w, v, name);
          break;
      }
    }
  }
  w.int16(-1); // trailer
  return w.buf.subarray(0, w.pos);
}

/**
 * `COPY table (columns) FROM STDIN (FORMAT binary)` with the rows as data, as a statement for the given Kysely
 * executor (a transaction included), on PostgreSQL or PGlite. COPY skips what an INSERT costs per statement and per
 * row in PostgreSQL (no parameter arrays to parse and cast, no plan; rows go to the table in batches), and the
 * binary format skips parsing text: each value arrives in its type's own form. It cannot resolve conflicts: it is
 * for tables whose rows never collide (a second copy of the same key fails, as an insert would).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database: only the table's name is used
export function copyRows(
  db: Kysely<any>,
  table: string,
  columns: readonly (readonly [name: string, type: CopyType])[],
  rows: readonly (readonly unknown[])[],
): RawBuilder<unknown> {
  // The table as the executor names it: qualified with the schema of `withSchema`, which raw SQL does not get.
  const from = /^select \* from (.+)$/.exec(db.selectFrom(table).selectAll().compile().sql)?.[1];
  if (!from) throw new Error(`copyRows: cannot name table ${table}`);
  const data = new CopyData(copyBinary(columns, rows));
  // The data is the statement's one parameter; its placeholder sits in a trailing comment, where the SQL ignores it.
  return sql`copy ${sql.raw(from)} (${sql.join(columns.map(([c]) => sql.ref(c)))}) from stdin with (format binary) -- ${data}`;
}

/** The SQL of a copyRows statement without the comment that carries its parameter's placeholder. */
export function copyStatement(compiledSql: string): string {
  return compiledSql.replace(/\s*--\s*\$1\s*$/, '');
}

/**
 * node-postgres client that runs copyRows statements through pg-copy-streams and every other query as usual; the
 * store's pools are made of it (pg.Pool's `Client` option), so Kysely needs no knowledge of copies.
 */
export class CopyingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const data = typeof config === 'string' && Array.isArray(values) ? copyDataOf(values) : undefined;
      return data ? copy(query, copyStatement(config as string), data) : query(config, values, callback);
    }) as pg.Client['query'];
  }
}

/** One copy on a client: the statement as a pg-copy-streams query, the data written to it. */
async function copy(
  query: (submittable: unknown) => unknown,
  statement: string,
  data: CopyData,
): Promise<{ command: string; rowCount: number; rows: never[] }> {
  const stream = copyFrom(statement);
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  query(stream);
  // In one piece: one CopyData message (in 64 KB pieces PostgreSQL took a fifth more CPU for the same rows).
  stream.end(data.data);
  await done;
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}
