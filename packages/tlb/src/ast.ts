/** The parsed form of a TL-B scheme file: constructors with their tags, fields and result types. */

/** A type expression, as written after a field's colon, inside parentheses, or as a result-type argument. */
export type TypeExpr =
  /** A type or variable name applied to arguments: `Maybe X`, `uint64`, `n`, `VarUInteger 16`. */
  | { kind: 'apply'; name: string; args: TypeExpr[] }
  | { kind: 'number'; value: number }
  /** `^X`: X stored in the next reference. */
  | { kind: 'ref'; inner: TypeExpr }
  /** `~n`: an output parameter (its value is computed while reading). */
  | { kind: 'output'; inner: TypeExpr }
  /** `a + b`, `a * b`: arithmetic on naturals; `n * X` with a type on the right is an array of n X. */
  | { kind: 'binary'; op: '+' | '*'; left: TypeExpr; right: TypeExpr }
  /** `## n` (n-bit natural), `#< n` (natural below n), `#<= n` (natural up to n). */
  | { kind: 'nat'; op: '##' | '#<' | '#<='; arg: TypeExpr }
  /** `[ fields ]`: an anonymous constructor, met as `^[ … ]`. */
  | { kind: 'record'; fields: Field[] }
  /** `flags . 0?X` (present when bit 0 of flags is set) or `n?X` (present when n is not 0). */
  | { kind: 'conditional'; condition: string; bit: number | null; then: TypeExpr };

export interface Field {
  /** null for an anonymous field (`_:X` or a bare type). */
  name: string | null;
  type: TypeExpr;
}

export interface Param {
  name: string;
  /** `#` for a natural, `Type` for a type parameter. */
  kind: '#' | 'Type';
}

export interface Constructor {
  /** As written; a few share one declaration: `a,b,c#00000001`. */
  name: string;
  /** The constructor tag as a string of 0/1, '' when it has none. */
  tag: string;
  params: Param[];
  fields: Field[];
  /** The type this constructor builds, with the arguments its declaration matches on. */
  result: { name: string; args: TypeExpr[] };
  /** 1-based line of the declaration in the scheme file, for messages. */
  line: number;
}
