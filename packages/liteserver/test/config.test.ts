/** Global config files as found in the wild: signed ip integers, extra fields, servers we cannot use; the trusted block. */
import { describe, expect, it } from 'vitest';
import { GlobalConfigError, LiteserverChain, parseGlobalConfig } from '../src/index.js';

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
        zero_state: {
          workchain: -1,
          shard: -9223372036854775808,
          seqno: 0,
          root_hash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=',
          file_hash: 'XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=',
        },
        hardforks: [],
      },
    });
    expect(config.liteservers.map((s) => s.name)).toEqual(['168.119.95.207:27787', '65.108.204.54:29296', '10.0.0.1:1']);
    expect(config.liteservers[0].publicKey).toEqual(Buffer.alloc(32, 7));
    expect(config.zeroState?.rootHash.toString('hex')).toBe('17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569');
    expect(config.initBlock).toBeNull();
    expect(config.skipped).toEqual([]);
  });

  it('reads validator.init_block, the trusted start of the signature chain to the head', () => {
    const server = { ip: 1, port: 1, id: { key } };
    const initBlock = {
      workchain: -1,
      shard: -9223372036854775808,
      seqno: 53986204,
      root_hash: Buffer.alloc(32, 1).toString('base64'),
      file_hash: 'ab'.repeat(32),
    };
    const config = parseGlobalConfig({ liteservers: [server], validator: { init_block: initBlock } });
    expect(config.initBlock).toEqual({ seqno: 53986204, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 0xab) });
    expect(() => parseGlobalConfig({ liteservers: [server], validator: { init_block: { ...initBlock, seqno: -1 } } })).toThrow(
      /init_block needs seqno/,
    );
    expect(() => parseGlobalConfig({ liteservers: [server], validator: { init_block: { ...initBlock, root_hash: 'c2hvcnQ=' } } })).toThrow(
      /init_block/,
    );
    expect(() => parseGlobalConfig({ liteservers: [server], validator: { init_block: { ...initBlock, workchain: 0 } } })).toThrow(
      /masterchain/,
    );
    expect(
      parseGlobalConfig({ liteservers: [server], tongate: { trusted_block_file: '/var/lib/tongate/mainnet.json' } }).trustedBlockFile,
    ).toBe('/var/lib/tongate/mainnet.json');
    expect(() => parseGlobalConfig({ liteservers: [server], tongate: { trusted_block_file: 7 } })).toThrow(
      /trusted_block_file must be a file path/,
    );
  });

  it('checking needs a trusted start (init_block or zero_state); unsafe does not', async () => {
    const config = parseGlobalConfig({ liteservers: [{ ip: 16777343, port: 9, id: { key } }] });
    expect(() => new LiteserverChain({ network: 'mainnet', config })).toThrow(/need validator.init_block or validator.zero_state/);
    const unsafe = new LiteserverChain({ network: 'mainnet', config, proofs: 'unsafe' });
    await unsafe.close();
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
    expect(() =>
      parseGlobalConfig({ liteservers: [{ ip: 1, port: 1, id: { key } }], validator: { zero_state: { workchain: -1 } } }),
    ).toThrow(/zero_state/);
  });
});
