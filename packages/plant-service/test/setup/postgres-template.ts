/**
 * PostgreSQL for the suite: TEST_DATABASE_URL when set (CI starts the machine's cluster), else a
 * throwaway cluster started from the installed PostgreSQL binaries. A migrated template database
 * is built once per run; each test file gets its own copy (CREATE DATABASE ... TEMPLATE).
 */
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { adminQuery, withDatabase } from '../helpers/postgres-admin.js';
import { startThrowawayCluster } from './postgres-cluster.js';

export default async function setup(project: TestProject) {
  let stopCluster: (() => Promise<void>) | undefined;
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const cluster = await startThrowawayCluster();
    url = cluster.url;
    stopCluster = cluster.stop;
  }
  const template = `plant_tpl_${process.pid}`;
  await adminQuery(url, `drop database if exists ${template}`);
  await adminQuery(url, `create database ${template}`);
  const database = openPostgres({ url: withDatabase(url, template), poolSize: 1 });
  await migrate(database);
  await database.close();

  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', template);
  return async () => {
    await adminQuery(url, `drop database if exists ${template}`);
    await stopCluster?.();
  };
}
