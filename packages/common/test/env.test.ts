import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, readEnv } from '../src/env.js';

const Schema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 8080 }),
  RATIO: Type.Number({ exclusiveMinimum: 0, maximum: 10, default: 1 }),
  VERBOSE: Type.Boolean({ default: false }),
  LEVEL: Type.Unsafe<'info' | 'debug'>({ type: 'string', enum: ['info', 'debug'], default: 'info' }),
  VERSION: Type.String({ pattern: '^1\\.\\d+$', default: '1.20', expected: 'a version like 1.20' }),
  URL: Type.Optional(Type.String({ pattern: '^https?://' })),
});

describe('readEnv', () => {
  it('fills defaults for unset and empty variables', () => {
    expect(readEnv(Schema, { PORT: '', VERBOSE: '  ' })).toEqual({
      values: { PORT: 8080, RATIO: 1, VERBOSE: false, LEVEL: 'info', VERSION: '1.20' },
      problems: [],
    });
  });

  it('converts text, trims it and accepts the usual spellings of a switch', () => {
    const { values } = readEnv(Schema, { PORT: ' 9000 ', RATIO: '0.5', VERBOSE: 'Yes', LEVEL: 'debug' });
    expect(values).toMatchObject({ PORT: 9000, RATIO: 0.5, VERBOSE: true, LEVEL: 'debug' });
    for (const off of ['no', 'OFF', '0', 'false'])
      expect(readEnv(Schema, { VERBOSE: off }).values.VERBOSE).toBe(false);
  });

  it('names every bad variable with what it expected, and uses the default in its place', () => {
    const { values, problems } = readEnv(Schema, {
      PORT: 'eighty',
      RATIO: '0',
      VERBOSE: 'maybe',
      LEVEL: 'loud',
      VERSION: 'latest',
      URL: 'ftp://x',
    });
    expect(problems).toEqual([
      'PORT: "eighty" is not valid (expected an integer from 0 to 65535)',
      'RATIO: "0" is not valid (expected a number above 0, at most 10)',
      'VERBOSE: "maybe" is not valid (expected true or false)',
      'LEVEL: "loud" is not valid (expected one of info, debug)',
      'VERSION: "latest" is not valid (expected a version like 1.20)',
      expect.stringMatching(/^URL: "ftp:\/\/x" is not valid \(expected .*https/),
    ]);
    expect(values).toEqual({ PORT: 8080, RATIO: 1, VERBOSE: false, LEVEL: 'info', VERSION: '1.20' });
  });

  it('refuses an integer with a fraction or trailing text', () => {
    expect(readEnv(Schema, { PORT: '80.5' }).problems).toHaveLength(1);
    expect(readEnv(Schema, { PORT: '80abc' }).problems).toHaveLength(1);
  });
});

describe('ConfigError', () => {
  it('lists one problem per line under a title', () => {
    const error = new ConfigError(['A: bad', 'B: worse']);
    expect(error.message).toBe('Invalid configuration:\n  - A: bad\n  - B: worse');
    expect(new ConfigError(['x'], 'Invalid accounts file f').message).toBe('Invalid accounts file f:\n  - x');
  });
});
