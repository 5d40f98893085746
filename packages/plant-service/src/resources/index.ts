/** Mounts every resource's routes under its URL prefix; services get the database here. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import type { ObjectStore } from '../storage/object-store.js';
import { calendarRoutes } from './calendar/routes.js';
import { calendarService } from './calendar/service.js';
import { catalogueRepositories } from './catalogue.js';
import { changeRoutes } from './changes/routes.js';
import { changeService } from './changes/service.js';
import { companionRoutes } from './companions/routes.js';
import { companionService } from './companions/service.js';
import { cultivarRoutes } from './cultivars/routes.js';
import { cultivarService } from './cultivars/service.js';
import { exportRoutes } from './export/routes.js';
import { exportService } from './export/service.js';
import { familyRoutes } from './families/routes.js';
import { familyService } from './families/service.js';
import { guildRoutes } from './guilds/routes.js';
import { guildService } from './guilds/service.js';
import { healthRoutes } from './health/routes.js';
import { imageDelivery } from './images/delivery.js';
import { type ImageWorkLimits, imageWork } from './images/image-work.js';
import { imgRoutes } from './images/img-routes.js';
import { imageRoutes } from './images/routes.js';
import { imageService } from './images/service.js';
import { searchRoutes } from './search/routes.js';
import { searchService } from './search/service.js';
import { speciesRoutes } from './species/routes.js';
import { speciesService } from './species/service.js';
import { supplierRoutes } from './suppliers/routes.js';
import { supplierService } from './suppliers/service.js';
import { tokenRoutes } from './tokens/routes.js';
import { type TokenLifetimes, tokenService } from './tokens/service.js';
import { userRoutes } from './users/routes.js';
import { userService } from './users/service.js';

/** Image storage: the object store, the upload limits and the turns image work waits for. */
export interface ResourceStorage {
  store: ObjectStore;
  imageMaxBytes: number;
  imageMaxDecodedBytes: number;
  imageWork: ImageWorkLimits;
  /** Told about each resized copy made (metrics). */
  onResize?: (outcome: 'ok' | 'failed') => void;
}

export async function registerResources(
  app: FastifyInstance,
  database: Database,
  storage: ResourceStorage,
  tokenLifetimes: TokenLifetimes,
): Promise<void> {
  const catalogue = catalogueRepositories();
  // Deleting a family, species or cultivar removes its images.
  const work = imageWork(storage.imageWork);
  const images = imageService(database, storage.store, {
    maxBytes: storage.imageMaxBytes,
    maxDecodedBytes: storage.imageMaxDecodedBytes,
    work,
    log: app.log,
    entities: { family: catalogue.families, species: catalogue.species, cultivar: catalogue.cultivars },
  });
  await app.register(healthRoutes(database));
  const families = familyService(database, catalogue);
  await app.register(familyRoutes(families), { prefix: '/api/v1/families' });
  const species = speciesService(database, catalogue);
  await app.register(speciesRoutes(species), {
    prefix: '/api/v1/species',
  });
  const cultivars = cultivarService(database, catalogue);
  await app.register(cultivarRoutes(cultivars), {
    prefix: '/api/v1/cultivars',
  });
  await app.register(calendarRoutes(calendarService(database)), { prefix: '/api/v1/calendar' });
  await app.register(guildRoutes(guildService(database)), { prefix: '/api/v1' });
  const suppliers = supplierService(database, catalogue);
  await app.register(supplierRoutes(suppliers), { prefix: '/api/v1/suppliers' });
  await app.register(companionRoutes(companionService(database)), { prefix: '/api/v1/companions' });
  await app.register(searchRoutes(searchService(database)), { prefix: '/api/v1/search' });
  await app.register(exportRoutes(exportService(database)), { prefix: '/api/v1/export' });
  await app.register(imageRoutes(images, { maxBytes: storage.imageMaxBytes }), { prefix: '/api/v1/images' });
  await app.register(imgRoutes(imageDelivery(storage.store, app.log, work, storage.onResize)));
  await app.register(tokenRoutes(tokenService(database, tokenLifetimes)), { prefix: '/api/v1/tokens' });
  await app.register(userRoutes(userService(database, app.log)), { prefix: '/api/v1/users' });
  // Reverting a create deletes the record by the kind's own rules (children, images).
  const changes = changeService(database, catalogue, {
    families: families.remove,
    species: species.remove,
    cultivars: cultivars.remove,
    suppliers: suppliers.remove,
  });
  await app.register(changeRoutes(changes), { prefix: '/api/v1' });
}
