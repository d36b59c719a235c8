import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root, for the files the API reads at run time (openapi.yaml, seeds/catalogues,
 * the front ends' dist). Worked out from this file, two levels down: api/src/paths.ts under tsx
 * and api/dist/server.js in the production bundle (api/build.mjs) sit at the same depth, so every
 * module that reads a file goes through here rather than its own import.meta.url.
 */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const rootPath = (...parts: string[]) => path.join(ROOT_DIR, ...parts);
