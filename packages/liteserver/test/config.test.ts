/** Global config files as found in the wild: signed ip integers, extra fields, servers we cannot use. */
import { describe, expect, it } from 'vitest';
import { GlobalConfigError, parseGlobalConfig } from '../src/index.js';

const key = Buffer.alloc(32, 7).toString('base64');

describe('parseGlobalConfig', () => {
  it('reads negative and unsigned ip integers and ignores extra fields', () => {
    const config = parseGlobalConfig({
      '@type': 'config.global',
      dht: { '@type': 'dht.config.global', k: 6 },
      liteservers: [
        { ip: -1468571697, port: 27787, provided: 'Beavis', id: { '@type': 'pub.ed25519', key } },
        { ip: 1097649206, port: 29296, id: { '@type': 'pub.ed25519', key } },
        { ip: '10.0.0.1', port: 1, id: { key } },
      ],
      validator: {
        '@type': 'validator.config.global',
        zero_state: { workchain: -1, shard: -9223372036854775808, seqno: 0, root_hash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=', file_hash: 'XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=' },
        hardforks: [],
      },
    });
    expect(config.liteservers.map((s) => s.name)).toEqual(['168.119.95.207:27787', '65.108.204.54:29296', '10.0.0.1:1']);
    expect(config.liteservers[0].publicKey).toEqual(Buffer.alloc(32, 7));
    expect(config.zeroState?.rootHash.toString('hex')).toBe('17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569');
    expect(config.skipped).toEqual([]);
  });

  it('skips servers it cannot use, naming why, and fails only when none is left', () => {
    const config = parseGlobalConfig({
      liteservers: [
        { ip: 2 ** 33, port: 1, id: { key } },
        { ip: 1, port: 70000, id: { key } },
        { ip: 1, port: 1, id: { '@type': 'pub.aes', key } },
        { ip: 1, port: 1, id: { key: 'c2hvcnQ=' } },
        { ip: 16777343, port: 4924, id: { key } },
      ],
    });
    expect(config.liteservers.map((s) => s.name)).toEqual(['1.0.0.127:4924']);
    expect(config.skipped).toHaveLength(4);
    expect(config.skipped[3]).toMatch(/liteservers\[3\]: id.key is not a 32-byte/);
    expect(config.zeroState).toBeNull();
    expect(() => parseGlobalConfig({ liteservers: [{ ip: 'x' }] })).toThrow(GlobalConfigError);
    expect(() => parseGlobalConfig({})).toThrow(/no "liteservers"/);
    expect(() => parseGlobalConfig({ liteservers: [{ ip: 1, port: 1, id: { key } }], validator: { zero_state: { workchain: -1 } } })).toThrow(/zero_state/);
  });
});
