// Logs two records through the process logger as `tongate start` builds it, with the environment's settings.
import { loadConfig } from '@tongate/server';
import { processLogger } from '../src/log-output.js';

const logger = processLogger(loadConfig());
logger.info({ network: 'mainnet', port: 8080 }, 'listening');
logger.error({ err: new Error('boom') }, 'request failed');
