import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForTests } from '../support/postgres.js';

// Issue 37: `npm test` wrote into a database named "test" that it did not create. The PostgreSQL suites now
// run in a database the test run creates (test/support/postgres-database.ts) and drops at its end.

describe('the PostgreSQL suites database', () => {
  it("is one this run created, not the server's own", async (ctx) => {
    const found = await postgresForTests();
    if ('skip' in found) return ctx.skip(found.skip);
    const name = new URL(found.url).pathname.slice(1);
    expect(name).toMatch(/^tool_gateway_test_\d+_[0-9a-f]{8}$/);
    expect(name).not.toBe(new URL(process.env['DATABASE_URL'] ?? 'postgres://x/test').pathname.slice(1));
    // it is there and usable
    const client = new pg.Client({ connectionString: found.url });
    await client.connect();
    try {
      expect((await client.query('select current_database() as db')).rows[0].db).toBe(name);
    } finally {
      await client.end();
    }
  });
});
