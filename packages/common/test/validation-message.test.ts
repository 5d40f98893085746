import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { describeSchemaError, type SchemaError } from '../src/validation-message.js';

const error = (keyword: string, instancePath: string, params: object, message?: string): SchemaError => ({
  keyword,
  instancePath,
  params,
  message,
});

describe('describeSchemaError', () => {
  it('starts the message with the dotted field path', () => {
    expect(describeSchemaError([error('maximum', '/ph/max', {}, 'must be <= 14')], 'body')).toEqual({
      message: 'ph.max: must be <= 14',
      problem: 'must be <= 14',
      field: 'ph.max',
    });
    expect(describeSchemaError([error('type', '/a~1b', {}, 'must be string')], 'body').field).toBe('a/b');
  });

  it('names a missing or unknown property as ajv reports it', () => {
    expect(describeSchemaError([error('required', '/target', { missingProperty: 'y' })], 'body')).toEqual({
      message: 'target.y: is required',
      problem: 'is required',
      field: 'target.y',
    });
    expect(
      describeSchemaError([error('additionalProperties', '', { additionalProperty: 'colour' })], 'body'),
    ).toEqual({
      message: 'colour: is not a known field',
      problem: 'is not a known field',
      field: 'colour',
    });
  });

  it('lists the allowed words without null', () => {
    expect(
      describeSchemaError([error('enum', '/layer', { allowedValues: ['shrub', 'herb', null] })], 'body'),
    ).toEqual({
      message: 'layer: must be one of: shrub, herb',
      problem: 'must be one of: shrub, herb',
      field: 'layer',
      allowed: ['shrub', 'herb'],
    });
  });

  it('names the whole value when no field is at fault', () => {
    expect(describeSchemaError([error('type', '', { type: ['object', 'null'] })], 'query')).toEqual({
      message: 'query: must be object or null',
      problem: 'must be object or null',
    });
    expect(describeSchemaError([], 'body')).toEqual({ message: 'body: is invalid', problem: 'is invalid' });
  });

  it('words the errors of TypeBox’s own checker the same way', () => {
    const checker = Compile(
      Type.Object(
        { player: Type.String(), kind: Type.Optional(Type.Enum(['a', 'b'])) },
        { additionalProperties: false },
      ),
    );
    const describe = (value: unknown) => describeSchemaError([...checker.Errors(value)], 'arguments');
    expect(describe({})).toMatchObject({ message: 'player: is required', field: 'player' });
    expect(describe({ player: 'x', extra: 1 })).toMatchObject({ message: 'extra: is not a known field' });
    expect(describe({ player: 'x', kind: 'c' })).toMatchObject({ field: 'kind', allowed: ['a', 'b'] });
  });
});
