import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the recorded data lives. Tests, benches and tools take paths from here, so that the repository needs
 * nothing beside it; product code never imports this package.
 */
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** A file or folder under `fixtures/`: recorded mainnet accounts, traces with their actions, liteserver answers. */
export function fixturePath(...segments: string[]): string {
  return resolve(root, 'fixtures', ...segments);
}

/** A file under `reference/specs/`: the hosted API's published specifications and the reference indexer's tables. */
export function referencePath(...segments: string[]): string {
  return resolve(root, 'reference', 'specs', ...segments);
}
export { recordedBlocks, type RecordedBlockFixture } from './blocks.js';
