// Compile-time checks (run by the repository's type check, `npm run typecheck`): handler replies are limited to
// the documented statuses and body shapes. Each @ts-expect-error fails the build if the error disappears.
import type { Reply, V2Handlers } from '@tongate/stubs';

interface Documented {
  200: { ok: true; result: { balance: string } };
  422: { ok: false; error: string; code: number };
}

export const success: Reply<Documented> = { status: 200, body: { ok: true, result: { balance: '1' } } };
export const documentedError: Reply<Documented> = { status: 422, body: { ok: false, error: 'bad address', code: 422 } };

// @ts-expect-error 404 is not a documented status
export const undocumentedStatus: Reply<Documented> = { status: 404, body: { ok: false, error: 'x', code: 404 } };

// @ts-expect-error balance must be a string
export const wrongBody: Reply<Documented> = { status: 200, body: { ok: true, result: { balance: 1 } } };

// @ts-expect-error an error body is not a success body
export const swappedBody: Reply<Documented> = { status: 200, body: { ok: false, error: 'x', code: 200 } };

type AddressInformationStatus = Awaited<ReturnType<V2Handlers['getAddressInformation']>>['status'];
export const generatedSuccess: AddressInformationStatus = 200;
// @ts-expect-error the generated handler type does not allow an undocumented status either
export const generatedUndocumented: AddressInformationStatus = 299;

// @ts-expect-error jsonRPC is implemented by the front door, not by a handler
export const noJsonRpcHandler: Partial<V2Handlers> = { jsonRPC: async () => ({ status: 200, body: {} }) };
