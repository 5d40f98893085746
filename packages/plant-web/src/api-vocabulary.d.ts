/** The option values of the enumerated fields, from the OpenAPI document (build/api-vocabulary.ts). */
declare module 'virtual:api-vocabulary' {
  const vocabularies: import('./value-labels.js').Vocabularies;
  export default vocabularies;
}
