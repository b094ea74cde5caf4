import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The spec's `Action` schema (generated/bundles/v3.json) as an ajv validator. */
export function actionValidator() {
  const bundle = JSON.parse(readFileSync(new URL('../../../generated/bundles/v3.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...bundle, $id: 'v3' });
  return ajv.getSchema('v3#/components/schemas/Action')!;
}
