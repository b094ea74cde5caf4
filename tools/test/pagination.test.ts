// v3 pagination follows the brief's "Limits" table exactly: limit/offset on the 20 list endpoints, sort on the
// 13 sortable ones, and none of the three anywhere else.
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

  it('no other v3 operation takes limit, offset or sort', () => {
    const paginated = new Set(BRIEF_PAGINATED.map((e) => e.path));
    const offenders = operations
      .filter((op) => !(op.method === 'get' && paginated.has(op.path)))
      .flatMap((op) =>
        op.parameters.filter((p) => PAGING_PARAMS.includes(String(p.name))).map((p) => `${op.method.toUpperCase()} ${op.path}: ${String(p.name)} (${String(p.in)})`),
      );
    expect(offenders).toEqual([]);
  });
});
