import type { OpenApiDocument } from './bundles.js';

/**
 * Operations of a version's contract that the contract serves under another prefix: a path item with servers of its
 * own (the emulation API, `/api/emulate/v1/emulateTrace`, specified in the v3 contract). The front door answers
 * them at that prefix through the version's pipeline, and not at the version's own prefix.
 */
export interface ForeignMounts {
  /** Public path (as the client sends it) -> the version path the pipeline knows, or undefined. */
  internalPath(path: string): string | undefined;
  /** Whether a version path belongs to an operation served elsewhere (answered 404 there). */
  servedElsewhere(path: string): boolean;
}

const PATH_OF_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/]+(\/.*)$/i;

export function foreignMounts(versions: { prefix: string; doc: OpenApiDocument }[]): ForeignMounts {
  const inward = new Map<string, string>();
  const elsewhere = new Set<string>();
  for (const { prefix, doc } of versions) {
    for (const [path, item] of Object.entries(doc.paths)) {
      const servers = (item as { servers?: { url: string }[] }).servers;
      if (!servers?.length) continue;
      const bases = new Set(servers.map((s) => PATH_OF_URL.exec(s.url)?.[1] ?? s.url));
      if (bases.size !== 1) throw new Error(`${path}: its servers disagree on the path prefix`);
      const [base] = bases;
      inward.set(`${base!.replace(/\/$/, '')}${path}`.toLowerCase(), `${prefix}${path}`);
      elsewhere.add(`${prefix}${path}`.toLowerCase());
    }
  }
  // As express routes match: any case, one optional trailing slash.
  const key = (path: string) => path.replace(/(.)\/$/, '$1').toLowerCase();
  return {
    internalPath: (path) => inward.get(key(path)),
    servedElsewhere: (path) => elsewhere.has(key(path)),
  };
}
