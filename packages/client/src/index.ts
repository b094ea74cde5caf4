export { createTonGateClient } from './client.js';
export type { Network, TonGateClient, TonGateClientOptions, V2Api, V2JsonRpcMethod, V2RestApi, V3Api } from './client.js';
export { TonGateApiError } from './errors.js';
