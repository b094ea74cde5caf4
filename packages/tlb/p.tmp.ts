import { messageSchemes } from './src/index.ts';
import { fixtureMessages } from './test/fixture-bodies.ts';
const ms = messageSchemes();
const msgs = fixtureMessages();
const dec = (ms as any).decoder;
let max = 0, maxName = '';
let t = performance.now();
for (const m of msgs) { ms.decodeBody(m.cell); if (dec.values > max) { max = dec.values; maxName = m.file; } }
console.log('all', (performance.now() - t).toFixed(0), 'ms', msgs.length, 'max values', max, maxName);
const jt = msgs.find(m => m.opcode === 0x0f8a7ea5)!;
t = performance.now(); for (let i = 0; i < 1000; i++) ms.decodeBody(jt.cell); console.log('1000 jetton transfers', (performance.now() - t).toFixed(0), 'ms');
