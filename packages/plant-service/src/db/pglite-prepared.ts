/**
 * Repeated statements on PGlite run as named prepared statements, as they do on PostgreSQL
 * (repeated-statements.ts). PGlite's own `query` sends every statement unnamed: it is parsed,
 * analysed and planned on every run, in the service's own thread, and for the large unions of a
 * search or a list page that is most of the statement's time. Here a repeated text is parsed once
 * (Parse and Describe under a name) and each run sends only Bind, Describe, Execute and Sync, in
 * one message: PostgreSQL keeps the plan, moving to a generic one after a few runs when that costs
 * no more, as it does for any prepared statement.
 *
 * A run takes PGlite's own locks, as its `query` does, so it never runs inside another caller's
 * transaction; statements inside transactions go through the transaction's handle and are left as
 * they are. Results are read by PGlite's own parsers, with the options the caller gave.
 */
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import { repeatedStatements } from './repeated-statements.js';

/** A statement parsed under its name, with the types PostgreSQL inferred for its parameters. */
interface Named {
  name: string;
  paramTypes: number[];
}

const wrapped = new WeakSet<PGlite>();

/**
 * Makes `client.query` run texts sent before as named prepared statements, at most `limit` of
 * them. Call before anything else wraps `client.query`.
 */
export async function preparePgliteRepeated(client: PGlite, limit: number): Promise<void> {
  // Names are per client: a second wrapper would hand out names the first already parsed.
  if (limit <= 0 || wrapped.has(client)) return;
  wrapped.add(client);
  // Already loaded with the client; imported here so the module costs nothing on PostgreSQL.
  const { parse, protocol } = await import('@electric-sql/pglite');
  const { serialize } = protocol;
  const nameOf = repeatedStatements(limit);
  const parsed = new Map<string, Named>();
  const unnamed = client.query.bind(client);

  /** Parses `text` under `name` and learns its parameters' types. */
  const prepare = async (name: string, text: string, options: QueryOptions | undefined): Promise<Named> => {
    const messages = await client.execProtocolStream(
      Buffer.concat([
        serialize.parse({ name, text, types: options?.paramTypes ?? [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return { name, paramTypes: parse.parseDescribeStatementResults(messages) };
  };

  const run = async <T>(
    text: string,
    name: string,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> => {
    let statement = parsed.get(text);
    if (statement === undefined) {
      statement = await prepare(name, text, options);
      parsed.set(text, statement);
    }
    const { paramTypes } = statement;
    // Each value as PGlite's `query` serializes it: by the parameter's type, else as text.
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = paramTypes[i] as number;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await client.execProtocolStream(
      Buffer.concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    // A statement outside a transaction may have written: persisted as PGlite's `query` does.
    await client.syncToFs();
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  };

  client.query = (async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
    // Files (COPY) and notices take PGlite's own path.
    const name = options?.blob === undefined && options?.onNotice === undefined ? nameOf(text) : undefined;
    if (name === undefined) return unnamed<T>(text, params, options);
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => run<T>(text, name, params, options)),
    );
  }) as PGlite['query'];
}
