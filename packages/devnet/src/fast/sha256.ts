import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fastPathApplies, type SeamOptions } from './version.js';

/**
 * @ton/core hashes every cell it builds or parses with @ton/crypto's sha256_sync, which runs jssha over hex strings.
 * In the devnet's hot path (parse a message, run it, store the transaction and the account) that hashing costs more
 * CPU than the TVM itself. This swaps in node:crypto for the same function, process-wide and only after checking
 * that both give the same digest. Results are identical; everything that builds cells in the process gets faster.
 * It patches a module of @ton/crypto 3.3.0 (its primitives/sha256.js); on another version it does nothing. The
 * composition root installs it explicitly (packages/cli/src/start.ts); creating a devnet does not.
 */
let installed = false;

export function installFastSha256(opts: SeamOptions = {}): boolean {
  if (installed) return true;
  if (!fastPathApplies('@ton/crypto', opts)) return false;
  const require = createRequire(import.meta.url);
  let primitives: { sha256_sync: (source: Buffer | string) => Buffer };
  try {
    // @ton/crypto re-exports sha256_sync through a getter that reads this module's export on every call.
    primitives = require(require.resolve('@ton/crypto').replace(/index\.js$/, 'primitives/sha256.js'));
  } catch {
    return false;
  }
  const original = primitives.sha256_sync;
  const fast = (source: Buffer | string): Buffer =>
    createHash('sha256')
      .update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source)
      .digest();
  const probe = Buffer.from('tongate devnet sha256 probe \u00e9', 'utf-8');
  if (typeof original !== 'function' || !original(probe).equals(fast(probe)) || !original('abc\u00e9').equals(fast('abc\u00e9')))
    return false;
  primitives.sha256_sync = fast;
  installed = true;
  return true;
}

/** Whether installFastSha256 has replaced @ton/crypto's sha256 in this process. */
export function fastSha256Installed(): boolean {
  return installed;
}
