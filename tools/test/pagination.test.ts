// v3 pagination follows the brief's "Limits" table exactly (limit/offset on the 20 list endpoints, sort on the
// 13 sortable ones), plus the paging the hosted API documents on the operations the brief's table leaves out, and
// none of the three anywhere else.
import { describe, expect, it } from 'vitest';
import { BRIEF_PAGINATED } from './support/brief.js';
import { asObject, deref, listOperations, loadBundle, type JsonObject } from './support/spec.js';

const v3 = loadBundle('v3');
const operations = listOperations(v3);
const PAGING_PARAMS = ['limit', 'offset', 'sort'];

function queryParam(params: JsonObject[], name: string): JsonObject | undefined {
  return params.find((p) => p.in === 'query' && p.name === name);
}

function schemaOf(param: JsonObject): JsonObject {
  return asObject(deref(v3, param.schema ?? {}));
}

describe('v3 pagination', () => {
  it('the brief table has 20 endpoints, 13 sortable', () => {
    expect(BRIEF_PAGINATED).toHaveLength(20);
    expect(BRIEF_PAGINATED.filter((e) => e.sortable)).toHaveLength(13);
  });

  describe.each(BRIEF_PAGINATED)('GET $path', ({ path, defaultLimit, maxLimit, sortable }) => {
    const op = operations.find((o) => o.method === 'get' && o.path === path);

    it('exists', () => {
      expect(op).toBeDefined();
    });

    it(`takes limit (integer 1..${maxLimit}, default ${defaultLimit}) and offset (integer >= 0, default 0), optional`, () => {
      const limit = queryParam(op!.parameters, 'limit');
      const offset = queryParam(op!.parameters, 'offset');
      expect(limit?.required ?? false).toBe(false);
      expect(offset?.required ?? false).toBe(false);
      expect(schemaOf(limit!)).toMatchObject({ type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit });
      const offsetSchema = schemaOf(offset!);
      expect(offsetSchema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
      expect(offsetSchema.maximum).toBeUndefined();
    });

    it(sortable ? 'takes sort (asc|desc, default desc)' : 'takes no sort', () => {
      const sort = queryParam(op!.parameters, 'sort');
      if (!sortable) {
        expect(sort).toBeUndefined();
        return;
      }
      expect(sort?.required ?? false).toBe(false);
      const schema = schemaOf(sort!);
      expect(schema.type).toBe('string');
      expect([...((schema.enum as string[]) ?? [])].sort()).toEqual(['asc', 'desc']);
      expect(schema.default).toBe('desc');
    });
  });

  // The hosted docs (toncenter-docs-v3.yaml) give these a limit with their own default; /events pages as /traces.
  const HOSTED_PAGINATED: { path: string; defaultLimit: number; offset: boolean; sort: boolean }[] = [
    ...['/validators/elections', '/validators/events', '/validators/cycles', '/validators/complaints'].map((path) => ({
      path,
      defaultLimit: 10,
      offset: false,
      sort: false,
    })),
    ...['nominatorEvents', 'nominatorRewards', 'validatorEvents', 'validatorRewards'].map((name) => ({
      path: `/staking/nominatorPools/${name}`,
      defaultLimit: 100,
      offset: false,
      sort: false,
    })),
    { path: '/dns/activeAuctions', defaultLimit: 100, offset: true, sort: false },
    { path: '/events', defaultLimit: 10, offset: true, sort: true },
  ];

  describe.each(HOSTED_PAGINATED)('GET $path (hosted paging)', ({ path, defaultLimit, offset, sort }) => {
    const op = operations.find((o) => o.method === 'get' && o.path === path)!;
    it(`takes limit 1..1000 default ${defaultLimit}${offset ? ', offset' : ''}${sort ? ', sort' : ''}, and no other paging`, () => {
      expect(schemaOf(queryParam(op.parameters, 'limit')!)).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        default: defaultLimit,
      });
      if (offset) expect(schemaOf(queryParam(op.parameters, 'offset')!)).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
      else expect(queryParam(op.parameters, 'offset')).toBeUndefined();
      expect(queryParam(op.parameters, 'sort') !== undefined).toBe(sort);
    });
  });

  it('no other v3 operation takes limit, offset or sort', () => {
    const paginated = new Set([...BRIEF_PAGINATED.map((e) => e.path), ...HOSTED_PAGINATED.map((e) => e.path)]);
    const offenders = operations
      .filter((op) => !(op.method === 'get' && paginated.has(op.path)))
      .flatMap((op) =>
        op.parameters
          .filter((p) => PAGING_PARAMS.includes(String(p.name)))
          .map((p) => `${op.method.toUpperCase()} ${op.path}: ${String(p.name)} (${String(p.in)})`),
      );
    expect(offenders).toEqual([]);
  });
});
