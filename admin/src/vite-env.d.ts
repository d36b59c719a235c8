/// <reference types="vite/client" />

declare module '*.yaml' {
  const document: import('./crud/schema-rules').OpenApiDocument;
  export default document;
}
