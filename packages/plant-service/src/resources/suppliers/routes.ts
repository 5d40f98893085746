import { catalogueRoutes } from '../../http/catalogue-routes.js';
import {
  CreateSupplierSchema,
  SupplierListQuery,
  SupplierListSchema,
  SupplierSchema,
  UpdateSupplierSchema,
} from '../../schema/suppliers.js';
import type { supplierService } from './service.js';

export const supplierRoutes = (service: ReturnType<typeof supplierService>) =>
  catalogueRoutes({
    noun: 'supplier',
    tag: 'suppliers',
    record: SupplierSchema,
    list: SupplierListSchema,
    listQuery: SupplierListQuery,
    create: CreateSupplierSchema,
    update: UpdateSupplierSchema,
    service,
    docs: {
      list: 'All suppliers, not paginated; ordered by name, then id.',
      create: 'The slug is derived from `name` and never changes.',
      delete: 'Deleting a supplier removes its cultivar links.',
    },
  });
