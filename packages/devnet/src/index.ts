export { createDevnet, Devnet, EXT_MSG_QUEUE_SIZE_LIMIT, type DevnetOptions } from './devnet.js';
export { DEVNET_FAUCET_MNEMONIC, DEVNET_FAUCET_BALANCE, devnetFaucet, type Faucet } from './faucet.js';
export { GLOBAL_IDS, genesisConfig } from './genesis.js';
export { signerFromSeed, verifyEd25519, devnetValidatorSigner, type Ed25519Signer } from './keys.js';
export { walletTransferBoc, type DevnetWallet } from './wallets.js';
export { serializeBlock, blockHashes, nextStateHash } from './blocks.js';
export type { SeedSummary } from './seed.js';
export * as tokens from './contracts/tokens.js';
export * as contractCodes from './contracts/codes.js';
