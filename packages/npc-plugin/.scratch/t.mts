import { Type } from 'typebox';

console.log(
  JSON.stringify(Type.Enum(['a', 'b'])),
  JSON.stringify(Type.Union([Type.Literal('a'), Type.Literal('b')])),
);
console.log(
  JSON.stringify(Type.Optional(Type.Number())),
  JSON.stringify(
    Type.Object({ a: Type.Optional(Type.Number()), b: Type.Union([Type.Number(), Type.Null()]) }),
  ),
);
console.log(JSON.stringify(Type.Record(Type.String(), Type.Integer())));
