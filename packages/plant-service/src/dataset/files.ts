/** The interchange files of a dataset directory (data/README.md), in dependency order. */
export const DATASET_FILES = [
  'families',
  'species',
  'suppliers',
  'cultivars',
  'cultivar-suppliers',
  'companions',
] as const;
export type DatasetFile = (typeof DATASET_FILES)[number];
