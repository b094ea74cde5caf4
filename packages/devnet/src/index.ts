export {
  createDevnet,
  Devnet,
  EXT_MSG_QUEUE_SIZE_LIMIT,
  DEFAULT_DEVNET_SHARDS,
  DEFAULT_DEVNET_BLOCK_INTERVAL_MS,
  type DevnetOptions,
  type DevnetFastPaths,
} from './devnet.js';
export { MAX_DEVNET_SHARDS, validShardCount, evenShards } from './shards.js';
export { installFastSha256, fastSha256Installed, WRITTEN_FOR, type SeamOptions } from './fast/index.js';
export { DEVNET_FAUCET_MNEMONIC, DEVNET_FAUCET_BALANCE, devnetFaucet, type Faucet } from './faucet.js';
export { GLOBAL_IDS, genesisConfig } from './genesis.js';
export { signerFromSeed, verifyEd25519, devnetValidatorSigner, poolValidatorSigner, type Ed25519Signer } from './keys.js';
export { DEVNET_CONSENSUS_VALUES, type DevnetConsensus } from './proofs.js';
export { walletTransferBoc, type DevnetWallet } from './wallets.js';
export { devnetBlockHeader, fileHashOf, type BlockCellsOf } from './block-cells.js';
export type { SeedSummary } from './seed.js';
export type { DnsSeedSummary } from './seed-dns.js';
export type { VestingSeedSummary } from './seed-vesting.js';
export type { MultisigSeedSummary } from './seed-multisig.js';
export * as tokens from './contracts/tokens.js';
export * as contractCodes from './contracts/codes.js';
export type { DevnetElectionStatus } from './devnet.js';
export {
  ELECTOR_ADDRESS,
  CONFIG_ADDRESS,
  DEVNET_ELECTION_TIMING,
  devnetElectionTiming,
  DEVNET_STAKE_LIMITS,
  DEVNET_VALIDATOR_COUNTS,
  STAKE_MESSAGE_FEE,
  validatorSetCell,
} from './elector.js';
export {
  newStakeBody,
  recoverStakeBody,
  registerComplaintBody,
  voteComplaintBody,
  complaintDataSize,
  devnetComplaintDescription,
  DEVNET_MAX_FACTOR,
  type ComplaintTerms,
} from './elector-messages.js';
export {
  devnetValidators,
  devnetAdnlAddress,
  DEVNET_COMPLAINT_FINE,
  DEVNET_COMPLAINT_FINE_PART,
  type DevnetValidator,
  type ComplaintRequest,
  type FiledComplaint,
} from './validator-operator.js';
export type { ValidatorsSeedSummary } from './seed-validators.js';
export type { ElectionTiming } from '@tongate/contracts';
export * as dns from './contracts/dns.js';
export * as vesting from './contracts/vesting.js';
export * as multisig from './contracts/multisig.js';
export type { PoolSeedSummary } from './seed-pools.js';
export * as poolCodes from './contracts/pool-codes.js';
export type { SalesSeedSummary } from './seed-sales.js';
export * as salesContracts from './contracts/sales.js';
export * as salesContractCodes from './contracts/sales-codes.js';
