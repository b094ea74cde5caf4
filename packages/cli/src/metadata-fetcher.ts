import { MetadataFetcher, type IndexerLogger } from '@tongate/indexer';
import { outboundPolicy } from '@tongate/outbound';
import type { Config, Network } from '@tongate/server';
import type { Store } from '@tongate/store';

/** The off-chain metadata fetcher of a network's index, beside its indexer; null when the setting leaves it off. */
export function startMetadataFetcher(
  config: Config,
  network: Network,
  db: ReturnType<Store['chain']>,
  logger: IndexerLogger,
): MetadataFetcher | null {
  if (!config.metadataFetch) return null;
  const fetcher = new MetadataFetcher({
    db,
    network,
    logger,
    schemes: config.metadataSchemes,
    ipfsGateway: config.metadataIpfsGateway,
    policy: outboundPolicy(config.outboundAllow),
    timeoutMs: config.metadataTimeoutMs,
    maxBytes: config.metadataMaxBytes,
    ttlSeconds: config.metadataTtlSeconds,
  });
  fetcher.start();
  return fetcher;
}
