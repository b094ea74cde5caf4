import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Executor } from '@ton/sandbox';
import { fastPathApplies, type SeamOptions } from './version.js';

/**
 * The sandbox's emulator is C++ compiled by emscripten with JS-side exception handling: every call that may throw
 * leaves wasm through an `invoke_*` import, which looks the callee up with `WebAssembly.Table.prototype.get` — a slow
 * native call — thousands of times per transaction (about a tenth of the devnet's CPU on a wallet transfer). This
 * builds the same wasm binary with the same glue, but hands the instance `invoke_*` imports recompiled from the
 * glue's own source with the table lookup memoized. The emulator's table is never modified after instantiation (the
 * glue has no table setter), so a memoized entry is always the entry. Anything unexpected, or a @ton/sandbox other
 * than the one this was written for → null, and the caller uses Executor.create() as it is.
 */
export async function createEmulatorExecutor(opts: SeamOptions = {}): Promise<Executor | null> {
  if (!fastPathApplies('@ton/sandbox', opts)) return null;
  try {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@ton/sandbox/dist/executor/emulator-emscripten.js'));
    const glue = readFileSync(join(dir, 'emulator-emscripten.js'), 'utf8');
    // The export names are minified; read them from the glue that assigns them.
    const exportName = (name: string) => new RegExp(`(?:^|[^\\w$])${name.replace(/\$/g, '\\$')}=wasmExports\\["(\\w+)"\\]`).exec(glue)?.[1];
    const names = {
      stackGet: exportName('_emscripten_stack_get_current'),
      stackRestore: exportName('__emscripten_stack_restore'),
      setThrew: exportName('_setThrew'),
    };
    if (!names.stackGet || !names.stackRestore || !names.setThrew) return null;
    if (!glue.includes('getWasmTableEntry=funcPtr=>wasmTable.get(funcPtr)') || !glue.includes('Module["instantiateWasm"](info,'))
      return null;
    const factory = require(join(dir, 'emulator-emscripten.js')) as (opts: object) => Promise<unknown>;
    const wasmBinary = new Uint8Array(
      Buffer.from(
        (require(join(dir, 'emulator-emscripten.wasm.js')) as { EmulatorEmscriptenWasm: string }).EmulatorEmscriptenWasm,
        'base64',
      ),
    );

    let glueScope: GlueScope | undefined;
    let failed!: (e: unknown) => void;
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const module = await Promise.race([
      failure,
      factory({
        wasmBinary,
        instantiateWasm(imports: Record<string, Record<string, unknown>>, receive: (instance: unknown, module: unknown) => void) {
          try {
            const wrappers: { ns: Record<string, unknown>; key: string; fn: (...a: unknown[]) => unknown }[] = [];
            for (const ns of Object.values(imports)) {
              for (const [key, fn] of Object.entries(ns)) {
                if (typeof fn === 'function' && /^invoke_[a-z]+$/.test(fn.name))
                  wrappers.push({ ns, key, fn: fn as (...a: unknown[]) => unknown });
              }
            }
            glueScope = recompileInvokes(wrappers.map((w) => w.fn));
            wrappers.forEach((w, i) => (w.ns[w.key] = glueScope!.fns[i]));
          } catch (e) {
            failed(e);
            return {};
          }
          wasmApi
            .instantiate(wasmBinary, imports)
            .then(({ instance, module }) => {
              const exports = instance.exports as Record<string, unknown>;
              const fn = (name: string) => {
                if (typeof exports[name] !== 'function') throw new Error(`emulator export ${name} is missing`);
                return exports[name] as (...a: unknown[]) => unknown;
              };
              const table = Object.values(exports).find(
                (e): e is WasmTable => typeof e === 'object' && e !== null && e.constructor?.name === 'Table',
              );
              if (!table) throw new Error('emulator exports no function table');
              glueScope!.bind(fn(names.stackGet!), fn(names.stackRestore!), fn(names.setThrew!), table);
              receive(instance, module);
            })
            .catch(failed);
          return {};
        },
      }),
    ]);
    return new (Executor as unknown as new (module: unknown) => Executor)(module);
  } catch {
    return null;
  }
}

/** The few WebAssembly APIs used here (the project's TypeScript libs do not declare the global). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: { instantiate(binary: Uint8Array, imports: object): Promise<{ instance: { exports: object }; module: unknown }> };
  }
).WebAssembly;

interface WasmTable {
  readonly length: number;
  get(index: number): unknown;
}

type Fn = (...a: unknown[]) => unknown;

interface GlueScope {
  fns: Fn[];
  bind(stackSave: Fn, stackRestore: Fn, setThrew: Fn, table: WasmTable): void;
}

/**
 * Emscripten's invoke_* wrappers, e.g.
 *   function invoke_vii(index,a1,a2){var sp=stackSave();try{getWasmTableEntry(index)(a1,a2)}catch(e){stackRestore(sp);if(e!==e+0)throw e;_setThrew(1,0)}}
 * rebuilt from their own source in one scope where getWasmTableEntry is memoized and stackSave, stackRestore and
 * _setThrew are the wasm exports themselves (bound after instantiation). Refuses any other shape.
 */
function recompileInvokes(fns: Fn[]): GlueScope {
  const shape =
    /^function invoke_[a-z]+\(index(?:,a\d+)*\)\{var sp=stackSave\(\);try\{(?:return )?getWasmTableEntry\(index\)\((?:a\d+(?:,a\d+)*)?\)\}catch\(e\)\{stackRestore\(sp\);if\(e!==e\+0\)throw e;_setThrew\(1,0\)(?:;return 0n)?\}\}$/;
  const sources = fns.map((fn) => {
    const src = fn.toString();
    if (!shape.test(src)) throw new Error(`unexpected emscripten wrapper: ${src.slice(0, 120)}`);
    return src;
  });
  const code = `
    let stackSave, stackRestore, _setThrew, table, mirror = [];
    const getWasmTableEntry = (i) => mirror[i] ?? (mirror[i] = table.get(i));
    return {
      fns: [${sources.join(',\n')}],
      bind(a, b, c, t) {
        stackSave = a; stackRestore = b; _setThrew = c; table = t;
        // Filled up front: a dense array stays a fast array (filled on demand, sparse indexes make it a dictionary).
        mirror = Array.from({ length: t.length }, (_, i) => t.get(i));
      },
    };`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the glue is the emulator's own code, compiled once, as its loader does
  return new Function(code)() as GlueScope;
}
