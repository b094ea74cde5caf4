/**
 * The machine's floor for an account-history page, a control beside bench:v3's volume figures: a bare node:http
 * server in a process of its own (as the gateway is) that serves the very bytes of a page the gateway answered,
 * with none of tongate's code on the way:
 *   /static  the page from memory (HTTP and the client alone);
 *   /pg      the page read from PostgreSQL over one node-postgres connection, then written out (the two hops of
 *            ~200 KB that every account-history request makes, without the query, the indexes or the handler).
 * What the gateway's figures cost above these is tongate's; what these cost is the machine's.
 * Reads the page from BENCH_V3_FLOOR_PAGE (a file) and DATABASE_URL; prints `READY <port>`; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const page = readFileSync(process.env.BENCH_V3_FLOOR_PAGE ?? '');
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
// A temporary table of this connection; stored uncompressed so that reading it is not a decompression figure.
await client.query('create temp table floor_page (page text)');
await client.query('alter table floor_page alter column page set storage external');
await client.query('insert into floor_page values ($1)', [page.toString('utf8')]);

const server = createServer((req, res) => {
  const reply = (body: string | Buffer) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(body);
  };
  if (req.url === '/static') return reply(page);
  if (req.url === '/pg') {
    client.query<{ page: string }>('select page from floor_page').then(
      (r) => reply(r.rows[0]!.page),
      (err: Error) => {
        res.writeHead(500).end(err.message);
      },
    );
    return;
  }
  res.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void client.end().finally(() => process.exit(0));
});
