import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_BUNDLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../generated/bundles');

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface Bundles {
  v2: OpenApiDocument;
  v3: OpenApiDocument;
}

export function loadBundles(dir = DEFAULT_BUNDLES_DIR): Bundles {
  const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as OpenApiDocument;
  return { v2: read('v2.json'), v3: read('v3.json') };
}
