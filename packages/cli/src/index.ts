export { main } from './main.js';
export { startGateway, type Gateway } from './start.js';
export { openKeyAdmin, type KeyAdmin } from './key-admin.js';
