import { describe, expect, it } from 'vitest';
import {
  AppError,
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  invalidField,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
} from '../src/errors.js';
import { errorResponse, HTTP_STATUS } from '../src/http-errors.js';

describe('the error catalogue', () => {
  it('gives every error a stable code and no transport status', () => {
    const error = new Conflict('name: already taken', { field: 'name' });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'Conflict', code: 'CONFLICT', details: { field: 'name' } });
    expect(Object.keys(error)).not.toContain('status');
    expect(Object.keys(error)).not.toContain('statusCode');
  });

  it('keeps the cause and the retry hint out of the details', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new ServiceUnavailable('try again', {}, { cause, retryAfterSeconds: 2 });
    expect(error.cause).toBe(cause);
    expect(error.retryAfterSeconds).toBe(2);
    expect(error.details).toEqual({});
    expect(new NotFound('gone').cause).toBeUndefined();
  });

  it('names the field of a bad input in the message and the details', () => {
    const error = invalidField('x', 'is required', { allowed: ['a'] });
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toBe('x: is required');
    expect(error.details).toEqual({ field: 'x', allowed: ['a'] });
  });
});

describe('the HTTP edge', () => {
  it('maps each code to its status', () => {
    const statuses = [
      new BadRequest(''),
      new Unauthorized(''),
      new Forbidden(''),
      new NotFound(''),
      new Conflict(''),
      new Gone(''),
      new PayloadTooLarge(''),
      new UnsupportedMediaType(''),
      new TooManyRequests(''),
      new ServiceUnavailable(''),
    ].map((error) => errorResponse(error).status);
    expect(statuses).toEqual([400, 401, 403, 404, 409, 410, 413, 415, 429, 503]);
    expect(Object.keys(HTTP_STATUS)).toHaveLength(statuses.length);
  });

  it('answers {error, ...details} and Retry-After when the error knows when', () => {
    expect(errorResponse(new Conflict('busy', { state: 'moving' }))).toEqual({
      status: 409,
      retryAfter: undefined,
      body: { error: 'busy', state: 'moving' },
    });
    expect(errorResponse(new TooManyRequests('slow down', {}, { retryAfterSeconds: 30 }))).toMatchObject({
      status: 429,
      retryAfter: '30',
      body: { error: 'slow down' },
    });
  });
});
