import { Cell } from '@ton/core';
import { ApiError } from '@tongate/stubs';

/**
 * What the generated decoders cannot check, because the spec cannot say it: that a base64 text is a bag of cells.
 * Every other parameter reaches the handlers already decoded (addresses, hashes, 64-bit integers; @tongate/stubs).
 */

function invalid(name: string, detail: string): ApiError {
  return new ApiError(422, `${name}: ${detail}`);
}

/** Decodes standard or url-safe base64 strictly (no stray characters). */
export function decodeBase64(name: string, value: unknown): Buffer {
  if (typeof value !== 'string') throw invalid(name, 'a base64 string is expected');
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw invalid(name, 'not valid base64');
  }
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** A single-root bag of cells given as base64. */
export function parseBoc(name: string, value: unknown): Cell {
  if (value === undefined || value === null || value === '') throw new ApiError(422, `${name} is required`);
  const bytes = decodeBase64(name, value);
  try {
    const roots = Cell.fromBoc(bytes);
    if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
    return roots[0]!;
  } catch (e) {
    throw invalid(name, `not a bag of cells (${(e as Error).message})`);
  }
}

export function optionalBoc(name: string, value: unknown): Cell | undefined {
  return value === undefined || value === null || value === '' ? undefined : parseBoc(name, value);
}
