import type { Cell } from '@ton/core';

/**
 * A multi-root BOC writer (@ton/core writes one root only; liteserver answers carry several, e.g. an account proof
 * = [shard block header proof, shard state proof], a transaction list). No index, no crc: what the C++ node accepts.
 */
export function serializeMultiRootBoc(roots: Cell[]): Buffer {
  const order: Cell[] = [];
  const index = new Map<string, number>();
  const visiting = new Set<string>();
  const post: Cell[] = [];
  const visit = (c: Cell) => {
    const key = c.hash().toString('hex');
    if (index.has(key) || visiting.has(key)) return;
    visiting.add(key);
    for (const r of c.refs) visit(r);
    index.set(key, -1);
    post.push(c);
  };
  for (const r of roots) visit(r);
  // Reverse post-order: every cell comes before the cells it references.
  for (let i = post.length - 1; i >= 0; i--) {
    index.set(post[i].hash().toString('hex'), order.length);
    order.push(post[i]);
  }
  const sizeBytes = Math.max(1, Math.ceil(Math.log2(order.length + 1) / 8));
  const bodies = order.map((c) => cellBody(c, index, sizeBytes));
  const total = bodies.reduce((a, b) => a + b.length, 0);
  const offBytes = Math.max(1, Math.ceil(Math.log2(total + 1) / 8));
  const head = Buffer.alloc(4 + 1 + 1 + sizeBytes * 3 + offBytes + sizeBytes * roots.length);
  let p = head.writeUInt32BE(0xb5ee9c72, 0);
  head[p++] = sizeBytes; // no index, no crc, no cache bits
  head[p++] = offBytes;
  p = head.writeUIntBE(order.length, p, sizeBytes);
  p = head.writeUIntBE(roots.length, p, sizeBytes);
  p = head.writeUIntBE(0, p, sizeBytes);
  p = head.writeUIntBE(total, p, offBytes);
  for (const r of roots) p = head.writeUIntBE(index.get(r.hash().toString('hex'))!, p, sizeBytes);
  return Buffer.concat([head, ...bodies]);
}

function cellBody(c: Cell, index: Map<string, number>, sizeBytes: number): Buffer {
  const bits = c.bits.length;
  const data = Buffer.alloc(Math.ceil(bits / 8));
  const whole = Math.floor(bits / 8);
  if (whole > 0) c.bits.subbuffer(0, whole * 8)!.copy(data, 0);
  if (bits % 8 !== 0) {
    let last = 0;
    for (let i = whole * 8; i < bits; i++) last |= (c.bits.at(i) ? 1 : 0) << (7 - (i % 8));
    last |= 1 << (7 - (bits % 8)); // completion tag
    data[whole] = last;
  }
  const out = Buffer.alloc(2 + data.length + c.refs.length * sizeBytes);
  out[0] = c.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32;
  out[1] = Math.floor(bits / 8) + Math.ceil(bits / 8);
  data.copy(out, 2);
  let p = 2 + data.length;
  for (const r of c.refs) p = out.writeUIntBE(index.get(r.hash().toString('hex'))!, p, sizeBytes);
  return out;
}
