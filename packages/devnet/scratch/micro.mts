import { Cell } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { installFastSha256 } from '../src/fast-sha256.js';
const boc = Buffer.from(defaultConfig, 'base64');
function run(label: string) {
  const c = process.cpuUsage();
  for (let i = 0; i < 20; i++) Cell.fromBoc(boc);
  const u = process.cpuUsage(c);
  console.log(label, ((u.user + u.system) / 1000 / 20).toFixed(2), 'ms per 115KB config parse');
}
run('jssha'); run('jssha');
installFastSha256();
run('node'); run('node');
