export { ChainLiteServer, type ChainLiteServerOptions, type LiteServerFaults } from './liteserver.js';
export { ed25519FromSeed, randomEd25519, type Ed25519KeyPair } from '../adnl/keys.js';
export {
  SignedMasterchain,
  type SignedMasterchainOptions,
  type AddBlockOptions,
  type SimplexReplay,
  type ValidatorKey,
} from './signed-chain.js';
export { RecordedBlocks, type RecordedBlock } from './recorded-blocks.js';
