/**
 * Makes each request one arrival for the order of statements on the embedded database
 * (db/statement-order.ts): everything its handler sends keeps the place in line the request took
 * when it came in.
 */
import type { FastifyInstance } from 'fastify';
import { asArrival } from '../db/statement-order.js';

export function orderByArrival(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, _reply, done) => asArrival(done));
}
