/**
 * The chain domain layer both API versions read the chain through: a ChainSource's reads as values (accounts and
 * wallets, history, sending and fee estimates, get-methods and their stacks), the parameters only code can check
 * (bags of cells), and the one place where a ChainError becomes an HTTP status. Each API version formats the values
 * its own way.
 */
export { apiErrorOf, mapChainErrors } from './chain-errors.js';
export { readAccount, readWallet, simpleStatus, type WalletInfo } from './accounts.js';
export { findInHistory, previousTransactionId, readAccountHistory, type HistoryRequest, type TransactionPage } from './transactions.js';
export {
  chainSubmitter,
  estimateExternalFees,
  externalMessage,
  sendExternal,
  type FeeQuery,
  type MessageSubmitter,
  type SentMessage,
} from './messages.js';
export { parseMethod, runMethod, type GetMethodCall } from './get-methods.js';
export * from './stack.js';
export { b64, bocB64, cellDataBytes } from './cells.js';
export { decodeBase64, optionalBoc, parseBoc } from './parse.js';
