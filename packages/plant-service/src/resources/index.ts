/** Mounts every resource's routes under its URL prefix; services get the database here. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { companionRoutes } from './companions/routes.js';
import { companionService } from './companions/service.js';
import { cultivarRoutes } from './cultivars/routes.js';
import { cultivarService } from './cultivars/service.js';
import { familyRoutes } from './families/routes.js';
import { familyService } from './families/service.js';
import { healthRoutes } from './health/routes.js';
import { searchRoutes } from './search/routes.js';
import { speciesRoutes } from './species/routes.js';
import { speciesService } from './species/service.js';
import { supplierRoutes } from './suppliers/routes.js';
import { supplierService } from './suppliers/service.js';

export async function registerResources(app: FastifyInstance, database: Database): Promise<void> {
  await app.register(healthRoutes(database));
  await app.register(familyRoutes(familyService(database)), { prefix: '/api/v1/families' });
  await app.register(speciesRoutes(speciesService(database)), { prefix: '/api/v1/species' });
  await app.register(cultivarRoutes(cultivarService(database)), { prefix: '/api/v1/cultivars' });
  await app.register(supplierRoutes(supplierService(database)), { prefix: '/api/v1/suppliers' });
  await app.register(companionRoutes(companionService(database)), { prefix: '/api/v1/companions' });
  await app.register(searchRoutes(database), { prefix: '/api/v1/search' });
}
