import { OPERATORS, type ListFields } from '../http/list-params.js';

/**
 * Where a declaration's list and its operation in openapi.yaml disagree, as sentences (none: they
 * agree). `parameters` are the list operation's parameter names, `sortable` its `_sort` enumeration.
 * Every filter the engine answers must be declared (else the validator refuses it before the
 * engine sees it), every `_like`/`_ne`/`_gte`/`_lte` declared on a field must be answered (else it
 * is silently ignored), and `_sort` must name exactly the sortable fields.
 */
export function contractDrift(operationId: string, fields: ListFields, parameters: string[], sortable: string[]): string[] {
  const names = new Set(parameters);
  const answered = new Set<string>();
  for (const [name, field] of Object.entries(fields)) {
    for (const op of field.operators ?? OPERATORS[field.kind]) answered.add(op === 'eq' ? name : `${name}_${op}`);
  }
  const problems: string[] = [];
  for (const name of answered) if (!names.has(name)) problems.push(`${operationId} does not declare '${name}'`);
  for (const name of names) {
    const m = /^(.+)_(ne|gte|lte|like)$/.exec(name);
    if (m && Object.hasOwn(fields, m[1]) && !answered.has(name)) problems.push(`${operationId} declares '${name}', which no field answers`);
  }
  const sorts = Object.keys(fields).filter((n) => fields[n].sort);
  if ([...sortable].sort().join() !== [...sorts].sort().join())
    problems.push(`${operationId} _sort is [${sortable.join(', ')}], the fields sort by [${sorts.join(', ')}]`);
  return problems;
}
