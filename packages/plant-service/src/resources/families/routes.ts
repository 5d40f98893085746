import { catalogueRoutes } from '../../http/catalogue-routes.js';
import {
  CreateFamilySchema,
  FamilyListQuery,
  FamilyPageSchema,
  FamilySchema,
  UpdateFamilySchema,
} from '../../schema/families.js';
import type { familyService } from './service.js';

export const familyRoutes = (service: ReturnType<typeof familyService>) =>
  catalogueRoutes({
    noun: 'family',
    tag: 'families',
    record: FamilySchema,
    list: FamilyPageSchema,
    listQuery: FamilyListQuery,
    create: CreateFamilySchema,
    update: UpdateFamilySchema,
    service,
    docs: {
      list: 'Paginated; ordered by scientific name, then id; with `search`, by relevance first.',
      create: 'The slug is derived from `name_scientific` (see the API description) and never changes.',
      delete: 'Refused with 409 (naming how many) while species belong to the family.',
    },
  });
