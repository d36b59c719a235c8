/// <reference types="vite/client" />

declare module '*.yaml' {
  const document: import('@vigia/contract/rules/schema').OpenApiDocument;
  export default document;
}
