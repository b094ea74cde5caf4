// A plain list of re-exports, one module per contract family.
export * from './wallets.js';
