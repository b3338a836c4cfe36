/**
 * The SQL text is written once with `$n` placeholders and spelled per database by its dialect: these
 * checks keep the spelling honest (the Store suite then runs the statements on every database).
 */
import { describe, expect, it } from 'vitest';
import { postgresDialect, type SqlDialect, sqliteDialect } from '../../src/store/sql/dialect.ts';
import { postgresMigrations, sqliteMigrations } from '../../src/store/sql/migrations.ts';
import { invoiceLock, storeStatements } from '../../src/store/sql/statements.ts';

/** Every compiled statement of the store, by `group.name`. */
function everyStatement(dialect: SqlDialect) {
  return Object.entries(storeStatements(dialect)).flatMap(([group, value]) =>
    'sql' in value
      ? [[group, value] as const]
      : Object.entries(value).map(([name, s]) => [`${group}.${name}`, s] as const),
  );
}

describe('SQL dialects', () => {
  it('binds SQLite values in the order its anonymous placeholders appear, reusing and dropping casts', () => {
    const compiled = sqliteDialect.compile(
      'SELECT $2, $1 WHERE ($2::text IS NULL OR x = $2) LIMIT $3::bigint',
    );
    // Each a unary plus on `?`, so SQLite never prepares the statement again for a newly bound value.
    expect(compiled.sql).toBe('SELECT +?, +? WHERE (+? IS NULL OR x = +?) LIMIT +?');
    expect(compiled.bind('a', 'b', 3)).toEqual({
      sql: compiled.sql,
      params: ['b', 'a', 'b', 'b', 3],
    });
  });

  it('hands PostgreSQL the text and the values as they are', () => {
    const compiled = postgresDialect.compile('SELECT $2, $1::text');
    expect(compiled.bind('a', 'b')).toEqual({ sql: 'SELECT $2, $1::text', params: ['a', 'b'] });
  });

  it("numbers every statement's placeholders from $1 without a gap", () => {
    for (const [name, statement] of everyStatement(postgresDialect)) {
      const used = new Set([...statement.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect(
        [...used].sort((a, b) => a - b),
        name,
      ).toEqual(Array.from(used, (_, i) => i + 1));
    }
  });

  it('leaves no PostgreSQL spelling in the SQLite text', () => {
    for (const [name, statement] of everyStatement(sqliteDialect)) {
      expect(statement.sql, name).not.toMatch(/\$\d|::|jsonb|SKIP LOCKED/);
    }
  });

  it("takes PostgreSQL's invoice-number lock by the buyer in $1; SQLite and D1 need none", () => {
    expect(invoiceLock(sqliteDialect)).toBeUndefined();
    expect(invoiceLock(postgresDialect)?.bind('acme')).toEqual({
      sql: expect.stringContaining('pg_advisory_xact_lock'),
      params: ['acme'],
    });
  });

  it('has the same schema versions on every database', () => {
    expect(sqliteMigrations).toHaveLength(postgresMigrations.length);
  });
});
