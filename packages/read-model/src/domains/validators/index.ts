/**
 * The validators domain (`GET /api/v3/validators/*`: elections, rounds, cycles, complaints, events): its tables
 * (tables.ts), the derivation that fills them from the elector and config 32/34 (derive.ts) and the operations
 * that read them (operations.ts).
 */
import { indexDomain } from '../../index-domain.js';
import { validatorsDerivation } from './derive.js';
import { validatorOperations } from './operations.js';
import { validatorMigrations, type ValidatorTables } from './tables.js';

export const validatorsDomain = indexDomain<ValidatorTables>()({
  name: 'validators',
  migrations: validatorMigrations,
  derivation: validatorsDerivation,
  operations: validatorOperations,
});

export * from './derive.js';
export * from './operations.js';
export type * from './tables.js';
