export { ChainLiteServer, type ChainLiteServerOptions, type LiteServerFaults } from './liteserver.js';
export { ed25519FromSeed, randomEd25519, type Ed25519KeyPair } from '../adnl/keys.js';
