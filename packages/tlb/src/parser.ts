/**
 * A parser for the TL-B scheme language as the message schemes use it: constructor tags (`#hex`, `$bits`, `_`),
 * several names on one declaration (`a,b#01`), implicit parameters (`{n:#}`, `{X:Type}`), constraints (parsed and
 * skipped), exotic-cell constructors (`!merkle_proof`, read like ordinary ones), conditional fields (`flags . 0?X`), anonymous cells (`^[ … ]`), arithmetic and `~` output parameters.
 *
 * Written here rather than taken from npm: `@ton-community/tlb-parser` 0.1.5 rejects three constructs the schemes
 * use (comma-joined names, `^[ … ]`) and takes about 4 s on the file, which startup cannot afford.
 */
import type { Constructor, Field, Param, TypeExpr } from './ast.js';

export class TlbSyntaxError extends Error {
  override readonly name = 'TlbSyntaxError';
}

type Token = { text: string; kind: 'ident' | 'number' | 'punct' };

const TOKEN = /\s*(#<=|#<|##|<=|>=|!=|[A-Za-z_][A-Za-z0-9_]*|\d+|[#:()[\]{}^~.?+*=<>-])/y;

function tokenize(text: string, line: number): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (;;) {
    const start = TOKEN.lastIndex;
    if (/^\s*$/.test(text.slice(start))) return tokens;
    const m = TOKEN.exec(text);
    if (!m) throw new TlbSyntaxError(`line ${line}: unexpected ${JSON.stringify(text.slice(start).trim().slice(0, 20))}`);
    const t = m[1]!;
    tokens.push({ text: t, kind: /^\d/.test(t) ? 'number' : /^[A-Za-z_]/.test(t) ? 'ident' : 'punct' });
  }
}

/** Blanks out comments, keeping every newline so that line numbers stay right. */
function stripComments(source: string): string {
  return source.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
}

/** `#0f8a7ea5` → bits; `$10` → bits; `#_`, `$_`, none → ''. A trailing `_` is a completion tag (TL-B's bit padding). */
function tagBits(kind: '#' | '$' | undefined, text: string): string {
  if (!kind || text === '_' || text === '') return '';
  const completed = text.endsWith('_');
  const body = completed ? text.slice(0, -1) : text;
  let bits = kind === '$' ? body : [...body].map((h) => parseInt(h, 16).toString(2).padStart(4, '0')).join('');
  if (completed) bits = bits.replace(/10*$/, '');
  return bits;
}

const HEADER = /^\s*!?([A-Za-z_][A-Za-z0-9_]*(?:,[A-Za-z_][A-Za-z0-9_]*)*)(?:(#)([0-9a-fA-F]*_?)|(\$)([01]*_?))?(?=\s|$|[({[^])/;

class DeclParser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly line: number,
  ) {}

  private fail(what: string): never {
    const near = this.tokens
      .slice(this.pos, this.pos + 4)
      .map((t) => t.text)
      .join(' ');
    throw new TlbSyntaxError(`line ${this.line}: ${what} near ${JSON.stringify(near || '<end>')}`);
  }
  private peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  private is(text: string, offset = 0): boolean {
    return this.peek(offset)?.text === text;
  }
  private next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) this.fail('unexpected end');
    return t;
  }
  private expect(text: string): void {
    if (this.next().text !== text) {
      this.pos--;
      this.fail(`expected ${text}`);
    }
  }
  done(): boolean {
    return this.pos >= this.tokens.length;
  }

  /** Fields and implicit parameters up to the end of the token list (or a closing `]`). */
  items(params: Param[], closing?: string): Field[] {
    const fields: Field[] = [];
    while (!this.done() && !(closing && this.is(closing))) {
      if (this.is('{')) {
        this.braces(params);
      } else if (this.peek()?.kind === 'ident' && this.is(':', 1)) {
        const name = this.next().text;
        this.next();
        fields.push({ name: name === '_' ? null : name, type: this.fieldType() });
      } else {
        fields.push({ name: null, type: this.atom() });
      }
    }
    return fields;
  }

  /** `{n:#}` / `{X:Type}` declare parameters; anything else in braces is a constraint, which decoding does not check. */
  private braces(params: Param[]): void {
    this.expect('{');
    if (this.peek()?.kind === 'ident' && this.is(':', 1) && (this.is('#', 2) || this.is('Type', 2)) && this.is('}', 3)) {
      const name = this.next().text;
      this.next();
      params.push({ name, kind: this.next().text === '#' ? '#' : 'Type' });
      this.next();
      return;
    }
    let depth = 1;
    while (depth > 0) {
      const t = this.next().text;
      if (t === '{') depth++;
      else if (t === '}') depth--;
    }
  }

  private fieldType(): TypeExpr {
    const t = this.peek();
    if (t?.kind === 'ident' && (this.is('.', 1) || this.is('?', 1))) {
      const condition = this.next().text;
      let bit: number | null = null;
      if (this.is('.')) {
        this.next();
        const n = this.next();
        if (n.kind !== 'number') this.fail('expected a bit number');
        bit = Number(n.text);
      }
      this.expect('?');
      return { kind: 'conditional', condition, bit, then: this.atom() };
    }
    return this.atom();
  }

  private startsAtom(): boolean {
    const t = this.peek();
    if (!t) return false;
    return t.kind !== 'punct' || ['(', '^', '~', '##', '#<', '#<=', '#', '['].includes(t.text);
  }

  atom(): TypeExpr {
    const t = this.next();
    if (t.kind === 'number') return { kind: 'number', value: Number(t.text) };
    if (t.kind === 'ident') return { kind: 'apply', name: t.text, args: [] };
    switch (t.text) {
      case '(': {
        const e = this.expr();
        this.expect(')');
        return e;
      }
      case '^':
        return { kind: 'ref', inner: this.atom() };
      case '~':
        return { kind: 'output', inner: this.atom() };
      case '##':
      case '#<':
      case '#<=':
        return { kind: 'nat', op: t.text, arg: this.atom() };
      case '#':
        return { kind: 'apply', name: '#', args: [] };
      case '[': {
        const fields = this.items([], ']');
        this.expect(']');
        return { kind: 'record', fields };
      }
    }
    this.pos--;
    return this.fail('expected a type');
  }

  private expr(): TypeExpr {
    return this.chain('+', () => this.chain('*', () => this.application()));
  }

  /** Left-associative `operand op operand …` (`*` binds tighter than `+`). */
  private chain(op: '+' | '*', operand: () => TypeExpr): TypeExpr {
    let left = operand();
    while (this.is(op)) {
      this.next();
      left = { kind: 'binary', op, left, right: operand() };
    }
    return left;
  }

  private application(): TypeExpr {
    const head = this.atom();
    if (head.kind !== 'apply' || head.name === '#') return head;
    const args: TypeExpr[] = [];
    while (this.startsAtom()) args.push(this.atom());
    return args.length ? { kind: 'apply', name: head.name, args } : head;
  }

  /** The result type after `=`: a name and its arguments. */
  result(): Constructor['result'] {
    const head = this.next();
    if (head.kind !== 'ident') this.fail('expected a type name');
    const args: TypeExpr[] = [];
    while (!this.done()) args.push(this.atom());
    return { name: head.text, args };
  }
}

/** Index of the `=` that separates fields from the result type (not one inside braces, brackets or parentheses). */
function resultSplit(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c)) depth--;
    else if (c === '=' && depth === 0 && !'<>!'.includes(text[i - 1] ?? '')) return i;
  }
  return -1;
}

/** Parses a whole scheme file into its constructors, in file order. */
export function parseTlb(source: string): Constructor[] {
  const text = stripComments(source);
  const constructors: Constructor[] = [];
  let line = 1;
  for (const decl of text.split(';')) {
    const leading = decl.slice(0, decl.length - decl.trimStart().length);
    const declLine = line + leading.split('\n').length - 1;
    line += decl.split('\n').length - 1;
    if (decl.trim() === '') continue;
    const header = HEADER.exec(decl);
    if (!header) throw new TlbSyntaxError(`line ${declLine}: expected a constructor name`);
    const rest = decl.slice(header[0].length);
    const eq = resultSplit(rest);
    if (eq < 0) throw new TlbSyntaxError(`line ${declLine}: no '=' before the result type`);
    const params: Param[] = [];
    const fieldsParser = new DeclParser(tokenize(rest.slice(0, eq), declLine), declLine);
    const fields = fieldsParser.items(params);
    const resultParser = new DeclParser(tokenize(rest.slice(eq + 1), declLine), declLine);
    const result = resultParser.result();
    const tag = header[2] ? tagBits('#', header[3]!) : header[4] ? tagBits('$', header[5]!) : '';
    constructors.push({ name: header[1]!, tag, params, fields, result, line: declLine });
  }
  return constructors;
}
