/// <reference types="vite/client" />

declare module '*.yaml' {
  const document: import('@vigia/contract/rules/schema').OpenApiDocument;
  export default document;
}

/** antd's CSS for the app's theme, made at build time (vite.config.ts, antd-styles.ts). */
declare module 'virtual:antd-styles.css';
