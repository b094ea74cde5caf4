/**
 * The seam between the devnet and its libraries' private internals: every fast path that reaches past a library's
 * public API lives in this folder, checks the installed version against the one it was written for
 * (version.ts) and, when they differ, reports itself unavailable so the caller takes the public API.
 */
export { WRITTEN_FOR, installedVersion, fastPathApplies, type SeamOptions, type SeamLibrary } from './version.js';
export { installFastSha256, fastSha256Installed } from './sha256.js';
export { createEmulatorExecutor } from './emscripten.js';
export { emulatorAccess, type EmulatorAccess, type EmulatorModule } from './executor.js';
export {
  blockchainControl,
  sandboxInternals,
  shareFrozenPrevBlocks,
  type BlockchainControl,
  type ContractInternals,
  type SandboxInternals,
} from './sandbox.js';
