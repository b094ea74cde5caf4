export * from './source.js';
export * from './errors.js';
