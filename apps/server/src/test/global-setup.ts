import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { hashPassword } from '../lib/passwords';
import { adminUrl } from './paths';

/**
 * Migrates and seeds one database per run that every test file copies: a PGlite dump on disk, and on
 * PostgreSQL a template database (CREATE DATABASE … TEMPLATE is a file copy, far cheaper than migrating).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = (project.config.env as Record<string, string> | undefined)?.AMORA_TEST_DB ?? 'pglite';
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const name = `amora_tpl_${process.pid}`;
    project.provide('templateDb', name);
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const handle = await openDatabase({ url: adminUrl(url, name) });
    await migrateDatabase(handle);
    await seedDemo(handle.db, hashPassword);
    await handle.close();
    await admin.end();
    return async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      const { rows } = await cleanup.query(`select datname from pg_database where datname like '${name.replace('tpl', 't')}_%'`);
      for (const row of rows) await cleanup.query(`drop database if exists ${row.datname} with (force)`);
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    };
  }
  const handle = await openDatabase({ dataDir: null });
  await migrateDatabase(handle);
  await seedDemo(handle.db, hashPassword);
  const client = (handle.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  const file = join(process.cwd(), '.tmp', `pglite-template-${process.pid}.tar`);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  await handle.close();
  return async () => {
    rmSync(file, { force: true });
  };
}
