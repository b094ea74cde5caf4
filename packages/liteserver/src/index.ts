export { LiteserverChain, type LiteserverChainOptions } from './client/source.js';
export { LitePool, mapLiteError, type PoolOptions, type ServerHealth, type ServerStatus } from './client/pool.js';
export { LiteConnection } from './client/connection.js';
export {
  parseGlobalConfig,
  GlobalConfigError,
  type GlobalConfig,
  type LiteserverEndpoint,
  type TrustedBlock,
  type ZeroState,
} from './config.js';
export { HeadTrust, type LiteQuery } from './client/trust.js';
export { LiteServerError, LiteTransportError, LS_CODE } from './errors.js';
export type { ProofPolicy } from './proofs.js';
