import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The sandbox emulator is CPU-bound WASM; files in parallel only compete for the same cores.
    fileParallelism: false,
  },
});
