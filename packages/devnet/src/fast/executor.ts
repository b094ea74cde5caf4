import type { Executor } from '@ton/sandbox';
import { fastPathApplies, type SeamOptions } from './version.js';

/** The emscripten module's exports the devnet calls directly. */
export interface EmulatorModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  lengthBytesUTF8(s: string): number;
  stringToUTF8(s: string, ptr: number, max: number): void;
  _emulate_with_emulator(emulator: number, libs: number, shardAccount: number, message: number, params: number): number;
}

/** The private parts of @ton/sandbox 0.41.0's Executor that DevnetExecutor's direct paths call, bound to one executor. */
export interface EmulatorAccess {
  module: EmulatorModule;
  /** The emulator instance for this config and verbosity (the sandbox keeps one and rebuilds it when they change). */
  emulatorPointer(config: string, verbosity: number): number;
  /** Calls an emulator export; string arguments are copied into wasm memory, numbers pass as they are (pointers). */
  invoke(method: string, args: (string | number)[]): number;
  /** Reads and frees a C string the emulator returned. */
  extractString(ptr: number): string;
}

interface ExecutorFields {
  getEmulatorPointer?(config: string, verbosity: number): number;
  invoke?(method: string, args: (string | number)[]): number;
  extractString?(ptr: number): string;
  module?: Partial<EmulatorModule>;
}

/** Direct access to the executor's emulator, or null on another @ton/sandbox than 0.41.0 or another shape. */
export function emulatorAccess(executor: Executor, opts: SeamOptions = {}): EmulatorAccess | null {
  if (!fastPathApplies('@ton/sandbox', opts)) return null;
  const fields = executor as unknown as ExecutorFields;
  const { module } = fields;
  if (typeof fields.getEmulatorPointer !== 'function' || typeof fields.invoke !== 'function' || typeof fields.extractString !== 'function')
    return null;
  if (typeof module?._malloc !== 'function' || typeof module._emulate_with_emulator !== 'function') return null;
  // Looked up on every call, as the sandbox's own methods are (so a wrapped method is honoured).
  return {
    module: module as EmulatorModule,
    emulatorPointer: (config, verbosity) => fields.getEmulatorPointer!(config, verbosity),
    invoke: (method, args) => fields.invoke!(method, args),
    extractString: (ptr) => fields.extractString!(ptr),
  };
}
