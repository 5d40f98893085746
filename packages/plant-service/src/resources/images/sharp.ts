/**
 * sharp (libvips) loaded on the first image it decodes or resizes: memory that a service never
 * sent an image does not need. Callers load it before they open a file or take an upload, so a
 * library that cannot load (a broken native install) is a 503 for that request, never a 400 for
 * the image, and leaves nothing open; the next image tries again.
 */
import type sharp from 'sharp';
import { ServiceUnavailable } from '../../errors.js';

export type Sharp = typeof sharp;

let loading: Promise<Sharp> | undefined;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw new ServiceUnavailable('image processing is unavailable; try again later', {}, { cause: error });
    },
  );
  return loading;
}
