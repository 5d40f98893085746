/** Mounts every resource's routes under its URL prefix; services get the database here. */
import type { FastifyInstance } from 'fastify';
import { listTotals } from '../db/catalogue-repository.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/client.js';
import type { IndexOptions, InMemoryIndex, SnapshotLog } from '../db/feed-snapshot.js';
import { memoryRelease } from '../lib/memory-release.js';
import type { ObjectStore } from '../storage/object-store.js';
import { calendarRoutes } from './calendar/routes.js';
import { calendarService } from './calendar/service.js';
import { catalogueRepositories } from './catalogue.js';
import { companionRoutes } from './companions/routes.js';
import { companionService } from './companions/service.js';
import { cultivarListIndex } from './cultivars/list-index.js';
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
import { searchIndex } from './search/search-index.js';
import { speciesListIndex } from './species/list-index.js';
import { speciesRoutes } from './species/routes.js';
import { speciesService } from './species/service.js';
import { supplierRoutes } from './suppliers/routes.js';
import { supplierService } from './suppliers/service.js';
import { tokenRoutes } from './tokens/routes.js';
import { tokenService } from './tokens/service.js';

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
  changeFeed: ChangeFeed,
): Promise<{ warmIndexes(): void }> {
  const catalogue = catalogueRepositories(listTotals(database.db, changeFeed));
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
  await app.register(familyRoutes(familyService(database, catalogue)), { prefix: '/api/v1/families' });
  // Each build leaves the snapshot it replaced as garbage: collect it once the builds settle.
  const release = memoryRelease({ log: app.log });
  app.addHook('onClose', async () => release.close());
  // Built on the first request that wants them or when the server calls warmIndexes, not here: at
  // this point the database may still be migrating or loading the starter dataset (writes that do
  // not pass through the change feed).
  const indexes: InMemoryIndex[] = [];
  /** An in-memory index of the database: its builds counted and followed by a memory release. */
  const inMemory = <I extends InMemoryIndex>(
    name: string,
    make: (db: Database['db'], feed: ChangeFeed, log: SnapshotLog, options: IndexOptions) => I,
  ): I => {
    const index = make(database.db, changeFeed, app.log, {
      onBuilt: (ms) => {
        app.metrics.indexBuilt(name, ms);
        release.soon();
      },
    });
    app.addHook('onClose', () => index.close());
    indexes.push(index);
    return index;
  };
  const listIndex = inMemory('species_list', speciesListIndex);
  await app.register(speciesRoutes(speciesService(database, catalogue, listIndex)), {
    prefix: '/api/v1/species',
  });
  const cultivarIndex = inMemory('cultivar_list', cultivarListIndex);
  await app.register(cultivarRoutes(cultivarService(database, catalogue, cultivarIndex)), {
    prefix: '/api/v1/cultivars',
  });
  await app.register(calendarRoutes(calendarService(database)), { prefix: '/api/v1/calendar' });
  await app.register(guildRoutes(guildService(database, listIndex)), { prefix: '/api/v1' });
  await app.register(supplierRoutes(supplierService(database, catalogue)), { prefix: '/api/v1/suppliers' });
  await app.register(companionRoutes(companionService(database)), { prefix: '/api/v1/companions' });
  const wordIndex = inMemory('search', searchIndex);
  await app.register(searchRoutes(database, wordIndex), { prefix: '/api/v1/search' });
  await app.register(exportRoutes(exportService(database)), { prefix: '/api/v1/export' });
  await app.register(imageRoutes(images, { maxBytes: storage.imageMaxBytes }), { prefix: '/api/v1/images' });
  await app.register(imgRoutes(imageDelivery(storage.store, app.log, work, storage.onResize)));
  await app.register(tokenRoutes(tokenService(database)), { prefix: '/api/v1/tokens' });
  return {
    // A failed build is logged by the index itself, and the database answers meanwhile.
    warmIndexes: () => {
      for (const index of indexes) void index.refresh();
    },
  };
}
