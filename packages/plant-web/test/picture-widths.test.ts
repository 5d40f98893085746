import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { WIDTHS } from '../src/components/picture.js';

describe('Picture', () => {
  it("asks only for widths the service's /img documents for ?w=", async () => {
    const document = YAML.parse(
      await readFile(new URL('../../plant-service/openapi.yaml', import.meta.url), 'utf8'),
    ) as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: number[] } }[] } }> };
    const img = Object.entries(document.paths).find(([path]) => path.startsWith('/img/'))?.[1];
    const served = img?.get.parameters.find((p) => p.name === 'w')?.schema.enum;
    expect(served).toBeDefined();
    for (const width of WIDTHS) expect(served).toContain(width);
  });
});
