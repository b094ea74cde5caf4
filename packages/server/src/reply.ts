import { SerializedJson } from '@tongate/stubs';
import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * res.json for API replies. Express's own res.json → res.send parses and re-formats the Content-Type (mime lookup,
 * charset) and checks request freshness on every reply, which cost about a tenth of a whole detectAddress
 * request; our replies are always fresh UTF-8 JSON (ETags are off), so those steps have nothing to decide.
 * Installed as the app's `res.json` (app.response), so anything that wraps res.json (the response validator in
 * tests) still sees every reply.
 */
export function leanJson(this: Response, body: unknown): Response {
  // A body that is already JSON text (SerializedJson) is written as it is.
  const json = body instanceof SerializedJson ? body.text : (JSON.stringify(body) as string | undefined);
  if (!this.hasHeader('Content-Type')) this.setHeader('Content-Type', JSON_TYPE);
  // end() with the whole body and no headers sent yet: Node writes Content-Length itself. A HEAD reply carries no
  // body, so its length (that of the GET reply) is stated explicitly.
  if (this.req.method === 'HEAD') this.setHeader('Content-Length', Buffer.byteLength(json ?? ''));
  this.end(json ?? '');
  return this;
}

/**
 * Under response validation the validator wraps res.json and checks the body object it is given: a SerializedJson
 * reply is parsed for it first (tests; production writes the text as it is).
 */
export function parseSerializedReplies(res: Response): void {
  const validating = res.json;
  res.json = (body: unknown) => validating.call(res, body instanceof SerializedJson ? body.toJSON() : body);
}
