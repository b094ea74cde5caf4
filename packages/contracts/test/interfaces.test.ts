import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CONTRACT_INTERFACES, codeMethodIds, detectCodeInterfaces, detectInterfaces, detectStakingContract } from '../src/interfaces.js';
import { methodId } from '../src/get-method.js';
import { fixtureCell } from './fixtures.js';
import { referencePath } from '@tongate/testdata';

const reference = JSON.parse(readFileSync(referencePath('v3', 'contract-interfaces.json'), 'utf8')) as {
  interfaces: { name: string; code_hashes: string[]; methods: string[] }[];
};
const code = (dir: string) => fixtureCell(`${dir}/code.boc.b64`);

describe('interface table', () => {
  it('is the reference extraction: 106 interfaces, same names, code hashes and get-methods', () => {
    expect(
      CONTRACT_INTERFACES.map((i) => ({
        name: i.name,
        code_hashes: i.codeHashes.map((h) => Buffer.from(h, 'hex').toString('base64')),
        methods: i.methods,
      })),
    ).toEqual(reference.interfaces);
    expect(CONTRACT_INTERFACES).toHaveLength(106);
  });

  it('method ids are crc16(name) | 0x10000', () => {
    // Known ids: seqno 85143, get_public_key 78748.
    expect([methodId('seqno'), methodId('get_public_key')]).toEqual([85143, 78748]);
  });
});

describe('method ids of recorded code', () => {
  it('finds the get-methods the fixture README lists', () => {
    const lists: Record<string, string[]> = {
      elector: [
        'active_election_id',
        'participates_in',
        'participant_list',
        'participant_list_extended',
        'compute_returned_stake',
        'past_elections',
        'past_elections_list',
        'complaint_storage_price',
        'get_past_complaints',
        'show_complaint',
        'list_complaints',
      ],
      'nominator-pool': [
        'get_pool_data',
        'list_nominators',
        'get_nominator_data',
        'has_withdraw_requests',
        'get_max_punishment',
        'list_votes',
        'list_voters',
      ],
      'single-nominator': ['get_pool_data', 'get_roles'],
      'getgems-auction': ['get_sale_data'],
      'getgems-sale-v4': ['get_fix_price_data_v4'],
      'dns-item': ['get_nft_data', 'get_domain', 'get_auction_info', 'get_last_fill_up_time', 'dnsresolve'],
      'telemint-item': [
        'get_full_domain',
        'get_telemint_token_name',
        'get_telemint_auction_state',
        'get_telemint_auction_config',
        'royalty_params',
        'get_nft_data',
        'dnsresolve',
      ],
      'validator-controller': ['get_validator_controller_data', 'get_max_punishment'],
    };
    for (const [dir, names] of Object.entries(lists)) {
      const ids = codeMethodIds(code(dir));
      expect(
        names.filter((n) => !ids.has(methodId(n))),
        dir,
      ).toEqual([]);
    }
    expect([
      codeMethodIds(code('elector')).size,
      codeMethodIds(code('single-nominator')).size,
      codeMethodIds(code('getgems-sale-v4')).size,
    ]).toEqual([24, 3, 3]);
  });

  it('code of another shape has no method ids', () => {
    expect(codeMethodIds(fixtureCell('elector/data.boc.b64')).size).toBe(0);
  });
});

describe('detection', () => {
  it('a listed code hash names one interface; otherwise every interface whose get-methods the code has', () => {
    expect(detectCodeInterfaces(code('getgems-auction'))).toEqual(['nft_auction_getgems_v3']);
    expect(detectCodeInterfaces(code('getgems-sale-v4'))).toEqual(['nft_sale_getgems_v4']);
    expect(detectCodeInterfaces(code('validator-controller'))).toEqual(['validator_controller']);
    expect(detectCodeInterfaces(code('dns-item'))).toEqual(['dns', 'editable', 'nft_item']);
    expect(detectCodeInterfaces(code('telemint-item'))).toEqual(['dns', 'nft_item', 'teleitem']);
    // The TON Foundation pool matches tv_pool by its methods, and daolama_vault, which asks only for get_pool_data.
    expect(detectCodeInterfaces(code('nominator-pool'))).toEqual(['daolama_vault', 'tv_pool']);
    expect(detectCodeInterfaces(code('elector'))).toEqual([]);
  });

  it('an exact code hash wins over methods, in any letter case', () => {
    const v4r2 = CONTRACT_INTERFACES.find((i) => i.name === 'wallet_v4r2')!;
    expect(detectInterfaces(v4r2.codeHashes[0].toUpperCase(), new Set())).toEqual(['wallet_v4r2']);
    expect(detectInterfaces('00'.repeat(32), new Set(['seqno', 'get_public_key'].map(methodId)))).toEqual([
      'wallet_highload_v2',
      'wallet_v1r2',
      'wallet_v1r3',
      'wallet_v2r1',
      'wallet_v2r2',
      'wallet_v3r1',
      'wallet_v3r2',
      'wallet_v5_beta',
    ]);
  });

  it('staking pools by code hash, as the fixtures README gives them', () => {
    expect(code('nominator-pool').hash().toString('base64')).toBe('mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=');
    expect(detectStakingContract(code('nominator-pool'))).toBe('nominator_pool_v1');
    expect(detectStakingContract(code('single-nominator'))).toBe('single_nominator_v1.1');
    expect(detectStakingContract(code('validator-controller'))).toBeNull();
  });
});
