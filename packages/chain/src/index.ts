export * from './source.js';
export * from './errors.js';
export * from './tl.js';
export * from './messages.js';
export * from './shards.js';
export * from './stack-limits.js';
