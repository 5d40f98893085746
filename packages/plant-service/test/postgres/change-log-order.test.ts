/**
 * The change feed under concurrent writers: 24 clients of their own commit transactions of one
 * to three writes each, with pauses between the writes and before the commit (so transactions
 * that wrote first often commit last), a fifth of them rolled back, while a reader polls the feed
 * over HTTP. The reader must see every committed change exactly once, in commit order (each
 * page continues exactly where the last ended, positions with no gap, each writer's own
 * transactions in the order it committed them), and never a change that rolled back. Numbered
 * from a sequence as each entry is inserted instead, the log fails this within the first pages
 * (a page skips a position that commits later).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const WRITERS = 24;
const TRANSACTIONS = 60;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RESPONSE_CACHE_MB: '0' });
});
afterAll(() => t.close());

interface Seen {
  position: number;
  slug: string | null;
  op: string;
}

/** A deterministic pseudo-random sequence, so a failure can be run again as it was. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('change feed order', () => {
  it('shows each committed change once, in commit order, never a rolled-back one', async () => {
    // Slug of each family → its writer, transaction number, and whether that transaction committed.
    const written = new Map<string, { writer: number; tx: number; committed: boolean }>();
    let writersDone = false;

    async function writer(w: number): Promise<void> {
      const next = random(w + 1);
      const client = new pg.Client({ connectionString: t.database.url });
      await client.connect();
      try {
        for (let tx = 0; tx < TRANSACTIONS; tx++) {
          const slugs = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, k) => `w${w}-t${tx}-${k}`);
          const commit = next() >= 0.2;
          await client.query('begin');
          for (const slug of slugs) {
            await client.query('insert into families (slug, name_scientific) values ($1, $1)', [slug]);
            if (next() < 0.4) await sleep(next() * 4);
          }
          await sleep(next() * 4);
          await client.query(commit ? 'commit' : 'rollback');
          for (const slug of slugs) written.set(slug, { writer: w, tx, committed: commit });
        }
      } finally {
        await client.end();
      }
    }

    const seen: Seen[] = [];
    let after = 0;
    let pages = 0;
    async function poll(): Promise<number> {
      const res = await t.app.inject({ url: `/api/v1/changes?after=${after}&limit=250` });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { data: Seen[]; next: number };
      // Every page starts right after the last one and has no hole.
      page.data.forEach((entry, i) => {
        expect(entry.position).toBe(after + 1 + i);
      });
      seen.push(...page.data);
      after = page.next;
      pages++;
      return page.data.length;
    }

    const reader = (async () => {
      while (!writersDone) {
        await poll();
        await sleep(2);
      }
      // Everything committed is visible now: read to the end.
      while ((await poll()) > 0);
    })();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writersDone = true;
    await reader;

    const committed = [...written].filter(([, v]) => v.committed).map(([slug]) => slug);
    const rolledBack = [...written].filter(([, v]) => !v.committed).map(([slug]) => slug);
    expect(committed.length).toBeGreaterThan(2000);
    expect(rolledBack.length).toBeGreaterThan(300);

    const slugs = seen.map((entry) => entry.slug as string);
    // Exactly once each, and nothing rolled back.
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(new Set(slugs)).toEqual(new Set(committed));
    // Each writer's transactions appear in the order it committed them.
    const lastTx = new Map<number, number>();
    for (const slug of slugs) {
      const { writer: w, tx } = written.get(slug)!;
      expect(tx).toBeGreaterThanOrEqual(lastTx.get(w) ?? 0);
      lastTx.set(w, tx);
    }
    // The poller really overlapped the writers.
    expect(pages).toBeGreaterThan(10);
  }, 180_000);
});
