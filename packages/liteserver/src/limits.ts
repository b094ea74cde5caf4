/**
 * The C++ liteserver's own limits (ton validator/impl/liteserver.cpp): the devnet liteserver enforces them, the
 * client asks within them.
 */
export const LITESERVER_LIMITS = {
  /** getTransactions answers at most this many transactions. */
  transactionsPerQuery: 16,
  /** listBlockTransactions(Ext) answers at most this many. */
  blockTransactionsPerQuery: 256,
  /** getLibraries serves at most this many hashes. */
  librariesPerQuery: 16,
} as const;

/** A masterchain seqno meaning "the server's last block" (getAccountState accepts it). */
export const LAST_BLOCK_SEQNO = 0xffffffff;
