export * from './events.js';
export * from './protocol.js';
export * from './hub.js';
export * from './bus.js';
export * from './endpoints.js';
export * from './registry.js';
