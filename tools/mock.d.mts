export interface MockOptions {
  host?: string;
  /** Gateway port (0 = any free port). */
  port?: number;
  v2Port?: number;
  v3Port?: number;
  dynamic?: boolean;
  bundlesDir?: string;
}
export interface RunningMock {
  /** Host root of the gateway: `${url}/api/v2`, `${url}/api/v3`. */
  url: string;
  v2Url: string;
  v3Url: string;
  stop(): Promise<void>;
}
export function startMock(options?: MockOptions): Promise<RunningMock>;
