export * from './cells.js';
export * from './get-method.js';
export * from './config-params.js';
export * from './elector.js';
export * from './elector-messages.js';
