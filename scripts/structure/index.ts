/**
 * The checks of issue 40 that scripts/check-structure.ts runs beside its own: one writer per table
 * and the triggers listed (tables.ts), seeds as a layer above the API (seeds.ts), the staff app's
 * custom calls through providers/calls.ts (custom-calls.ts).
 */
import type { FileImport } from '../check-structure.js';
import { checkCustomCalls } from './custom-calls.js';
import { checkSeedsLayer } from './seeds.js';
import { checkTables } from './tables.js';

export async function checkWritersAndLayers(root: string, imports: FileImport[]): Promise<string[]> {
  return [...(await checkTables({ root })), ...checkSeedsLayer(imports), ...checkCustomCalls(root)];
}
