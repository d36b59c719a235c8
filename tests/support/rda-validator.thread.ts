/**
 * The IHCE peer's validator on a thread of its own (ihce-peer.ts, validateApart): the guide's
 * definitions loaded here, then each posted `{ id, bundle, profile }` answered `{ id, errors }` (or
 * `{ id, failure }`) with validateRda's errors.
 */
import { parentPort } from 'node:worker_threads';
import { loadRdaDefinitions, rdaErrors, validateRda, type Json } from './rda-validator.js';

loadRdaDefinitions();
parentPort!.on('message', ({ id, bundle, profile }: { id: number; bundle: Json; profile: string }) => {
  try {
    parentPort!.postMessage({ id, errors: rdaErrors(validateRda(bundle, profile)) });
  } catch (error) {
    parentPort!.postMessage({ id, failure: String((error as Error).stack ?? error) });
  }
});
