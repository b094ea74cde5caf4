export { refusalReason, parseCidr, type Cidr } from './addresses.js';
export {
  outboundGet,
  outboundPolicy,
  checkUrl,
  OutboundRefused,
  OutboundFailed,
  PUBLIC_ONLY,
  MAX_URL_LENGTH,
  type OutboundPolicy,
  type OutboundGetOptions,
  type OutboundResponse,
  type Resolver,
} from './fetch.js';
