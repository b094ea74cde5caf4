export { ChainLiteServer, type ChainLiteServerOptions, type LiteServerFaults } from './liteserver.js';
export { ed25519FromSeed, randomEd25519, type Ed25519KeyPair } from '../adnl/keys.js';
export { SignedMasterchain, type SignedMasterchainOptions, type AddBlockOptions, type ValidatorKey } from './signed-chain.js';
