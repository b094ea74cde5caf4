import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The emulator is CPU-bound WASM; files in parallel only compete for the same cores.
    fileParallelism: false,
  },
});
