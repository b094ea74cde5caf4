import { Executor } from '@ton/sandbox';
import { ChainError, EmulatorFault, isEmulatorFault } from '@tongate/chain';

/**
 * The emulator the liteserver backend runs get-methods and fee estimates in (@ton/sandbox's, the devnet's too). A trap
 * may leave the wasm instance broken for every later caller, so after one the instance is replaced and the call
 * tried once more on the fresh one; a second fault is the input's fault (422), as on the devnet.
 */
export class GuardedEmulator {
  private current: Promise<Executor> = Executor.create();
  restarts = 0;

  async run<T>(call: (executor: Executor) => Promise<T>): Promise<T> {
    try {
      return await this.attempt(call);
    } catch (e) {
      if (!(e instanceof EmulatorFault)) throw e;
      try {
        return await this.attempt(call);
      } catch (again) {
        if (again instanceof EmulatorFault) throw new ChainError('invalid', again.message, { cause: again });
        throw again;
      }
    }
  }

  private async attempt<T>(call: (executor: Executor) => Promise<T>): Promise<T> {
    const instance = this.current;
    try {
      return await call(await instance);
    } catch (e) {
      if (!isEmulatorFault(e)) throw e;
      if (this.current === instance) {
        this.restarts++;
        this.current = Executor.create();
      }
      throw new EmulatorFault(e);
    }
  }
}
