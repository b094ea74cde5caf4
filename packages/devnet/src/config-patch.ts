import { beginCell, Dictionary, type Cell, type DictionaryValue } from '@ton/core';

/**
 * A change of some config params, as the journal keeps it when the devnet's config stand-in installs validator sets:
 * `HashmapE 32 (Maybe ^Cell)`, nothing meaning the param was removed.
 */
const PATCH_VALUE: DictionaryValue<Cell | null> = {
  serialize: (v, b) => b.storeMaybeRef(v),
  parse: (s) => s.loadMaybeRef(),
};

export function configPatchCell(params: Map<number, Cell | null>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), PATCH_VALUE);
  for (const [id, cell] of params) dict.set(id, cell);
  return beginCell().storeDictDirect(dict).endCell();
}

export function readConfigPatch(cell: Cell): Map<number, Cell | null> {
  return new Map(Dictionary.loadDirect(Dictionary.Keys.Int(32), PATCH_VALUE, cell));
}

/** A ConfigParams dictionary root with a patch applied. */
export function applyConfigPatch(config: Cell, patch: Cell): Cell {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  for (const [id, cell] of readConfigPatch(patch)) {
    if (cell) dict.set(id, cell);
    else dict.delete(id);
  }
  return beginCell().storeDictDirect(dict).endCell();
}
