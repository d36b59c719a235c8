/**
 * A paced load (runPaced) on a thread of its own: started by runPacedApart (load.ts) with the load's
 * options as workerData; posts back its LoadResult.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runPaced } from './load.js';

parentPort!.postMessage(await runPaced(workerData as Parameters<typeof runPaced>[0]));
