/**
 * sharp (libvips) loaded on the first image it decodes or resizes: memory that a service never
 * sent an image does not need.
 */
import type sharp from 'sharp';

let loading: Promise<typeof sharp> | undefined;

export function loadSharp(): Promise<typeof sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
