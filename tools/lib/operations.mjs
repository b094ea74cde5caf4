// Emits generated/sdk/operations.ts: for each version, which SDK function serves which operation and where its
// parameters go, plus the JSON-RPC method table, so @tongate/client can build its surface without re-reading specs.
import { GENERATED_BANNER, key, str } from './emit-util.mjs';
import { FRONT_DOOR_OPERATIONS } from './server.mjs';

function operationsConst(version, model) {
  const rows = model
    .filter((op) => !FRONT_DOOR_OPERATIONS.has(op.operationId))
    .map(
      (op) =>
        `  ${key(op.sdk.name)}: { in: ${str(op.input)}, method: ${str(op.method)}, path: ${str(op.path)}${op.base ? `, base: ${str(op.base)}` : ''} },`,
    );
  return `/** SDK function name -> where its parameters go, the operation's method and path, and (when it is served under a prefix\n * of its own rather than the version's) that prefix. */\nexport const ${version}Operations = {\n${rows.join('\n')}\n} as const;\n`;
}

function operationsInterface(version, model) {
  const ns = version.toUpperCase();
  const rows = model
    .filter((op) => !FRONT_DOOR_OPERATIONS.has(op.operationId))
    .map((op) => {
      const data = `${ns}.${op.sdk.dataType}`;
      const params = op.input === 'none' ? 'undefined' : `${data}['${op.input}']`;
      return `  ${key(op.sdk.name)}: { params: ${params}; responses: ${ns}.${op.sdk.responsesType} };`;
    });
  return `/** SDK function name -> its parameters and documented success responses. */\nexport interface ${ns}Operations {\n${rows.join('\n')}\n}\n`;
}

export function emitOperations({ v2Model, v3Model, jsonRpcTable }) {
  const sdkNameById = new Map(v2Model.map((op) => [op.operationId, op.sdk.name]));
  const methods = Object.entries(jsonRpcTable).map(([method, entry]) => [method, sdkNameById.get(entry.operationId)]);
  return `${GENERATED_BANNER}
import type * as V2 from './v2/types.gen.js';
import type * as V3 from './v3/types.gen.js';

${operationsConst('v2', v2Model)}
${operationsInterface('v2', v2Model)}
${operationsConst('v3', v3Model)}
${operationsInterface('v3', v3Model)}
/** JSON-RPC method name -> the v2 SDK function whose parameters and result it shares. */
export const v2JsonRpcMethods = {
${methods.map(([method, name]) => `  ${key(method)}: ${str(name)},`).join('\n')}
} as const;
`;
}
