import { Cell, type Slice } from '@ton/core';

/** Hashmap / HashmapAug (block.tlb): path-only lookups through proofs, and whole walks. */

/**
 * Looks one key up in a Hashmap / HashmapAug of `n`-bit keys, walking only the path to it, so that pruned branches
 * elsewhere (what a Merkle proof leaves of the rest) are never read. `skipExtra` skips a fork's or leaf's extra
 * (HashmapAug); returns the leaf's value slice, or null when the key is absent.
 */
export function hashmapLookup(root: Cell | Slice, key: Buffer, n: number, skipExtra?: (s: Slice) => void): Slice | null {
  const bit = (i: number) => ((key[i >> 3] >> (7 - (i & 7))) & 1) === 1;
  // A dictionary stored inline (HashmapAug inside an AccountBlock) starts in the middle of a cell: a slice.
  let inline: Slice | null = root instanceof Cell ? null : root;
  let cell = root instanceof Cell ? root : null;
  let pos = 0;
  for (;;) {
    // A pruned branch on the path: the proof does not cover this key (it must not be read as dictionary data).
    if (cell?.isExotic) throw new Error('the dictionary path to this key is pruned in the proof');
    const s = inline ?? cell!.beginParse();
    inline = null;
    const m = n - pos;
    const width = Math.ceil(Math.log2(m + 1));
    let label: boolean[];
    if (!s.loadBit()) {
      let len = 0;
      while (s.loadBit()) len++;
      label = Array.from({ length: len }, () => s.loadBit());
    } else if (!s.loadBit()) {
      const len = s.loadUint(width);
      label = Array.from({ length: len }, () => s.loadBit());
    } else {
      const v = s.loadBit();
      label = new Array(s.loadUint(width)).fill(v);
    }
    for (const b of label) if (b !== bit(pos++)) return null;
    if (pos === n) {
      skipExtra?.(s);
      return s;
    }
    const next = bit(pos++);
    const left = s.loadRef();
    const right = s.loadRef();
    cell = next ? right : left;
  }
}

/**
 * Every leaf of a Hashmap / HashmapAug of `n`-bit keys, in key order: the key, the value slice (after the extra,
 * which `skipExtra` skips) and the cells walked from the root to it. The whole dictionary must be there: a pruned
 * branch throws.
 */
export function hashmapEntries(
  root: Cell | Slice,
  n: number,
  skipExtra?: (s: Slice) => void,
): { key: bigint; value: Slice; path: Cell[] }[] {
  const out: { key: bigint; value: Slice; path: Cell[] }[] = [];
  const walk = (node: Cell | Slice, prefix: bigint, pos: number, path: Cell[]): void => {
    if (node instanceof Cell && node.isExotic) throw new Error('the dictionary is pruned in the proof');
    const here = node instanceof Cell ? [...path, node] : path;
    const s = node instanceof Cell ? node.beginParse() : node;
    const m = n - pos;
    const width = Math.ceil(Math.log2(m + 1));
    let len: number;
    let key = prefix;
    if (!s.loadBit()) {
      len = 0;
      while (s.loadBit()) len++;
      for (let i = 0; i < len; i++) key = (key << 1n) | (s.loadBit() ? 1n : 0n);
    } else if (!s.loadBit()) {
      len = s.loadUint(width);
      for (let i = 0; i < len; i++) key = (key << 1n) | (s.loadBit() ? 1n : 0n);
    } else {
      const v = s.loadBit() ? 1n : 0n;
      len = s.loadUint(width);
      for (let i = 0; i < len; i++) key = (key << 1n) | v;
    }
    pos += len;
    if (pos === n) {
      skipExtra?.(s);
      out.push({ key, value: s, path: here });
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    walk(left, key << 1n, pos + 1, here);
    walk(right, (key << 1n) | 1n, pos + 1, here);
  };
  walk(root, 0n, 0, []);
  return out;
}
