import { QueryTypes, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import { badRequest } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { Alarm } from '../../db/models/alarms.model.js';
import { defineResource } from '../../resources/resource.js';
import { ALARM_STATUS, PRIORITY_NAMES, canonicalElement, elementName, elementUnit, validateRange } from '@vigia/contract/rules/alarms';
import type { components } from '@vigia/contract/openapi';
import { alarmName } from './alarms.rules.js';

type S = components['schemas'];
type AlarmDto = S['Alarm'];

/** Name of the AI message template when a rule notifies the patient without choosing one (02 §3). */
const DEFAULT_IA_SCRIPT = 'alarma_predeterminada';

async function countPatients(sequelize: Sequelize, alarmIds: number[]): Promise<Map<number, number>> {
  if (!alarmIds.length) return new Map();
  const rows = await sequelize.query<{ alarm_id: number; n: number }>(
    'SELECT alarm_id, COUNT(*) AS n FROM patient_alarms WHERE alarm_id IN (:ids) GROUP BY alarm_id',
    { replacements: { ids: alarmIds }, type: QueryTypes.SELECT },
  );
  return new Map(rows.map((r) => [Number(r.alarm_id), Number(r.n)]));
}

/** The one place an alarms row becomes the contract's Alarm. */
function toAlarmDto(a: Alarm, patientsCount: number): AlarmDto {
  const element = canonicalElement(Number(a.clinical_element));
  return {
    id: Number(a.id),
    name: a.name,
    type: 1,
    clinical_element: Number(a.clinical_element) as AlarmDto['clinical_element'],
    clinical_element_id: element,
    clinical_element_name: elementName(element),
    clinical_element_unit: elementUnit(element),
    priority: Number(a.priority) as AlarmDto['priority'],
    priority_name: PRIORITY_NAMES[Number(a.priority)] ?? '',
    minimum_condition: Number(a.minimum_condition),
    maximum_condition: Number(a.maximum_condition),
    ia_alarm: !!a.ia_alarm,
    ia_script: a.ia_script,
    prompt_ia: a.prompt_ia,
    request_repeat_measurement: !!a.request_repeat_measurement,
    alarm_default_new_patients: !!a.alarm_default_new_patients,
    patients_count: patientsCount,
    status: ALARM_STATUS.active,
    created_at: new Date(a.created_at).toISOString(),
  };
}

function checkRange(min: number | undefined, max: number | undefined) {
  const message = validateRange(min, max);
  if (message) throw badRequest('minimum_condition', message);
}

/** The AI fields mean something only with the AI option (02 §5): without it they are cleared. */
function aiFields(iaAlarm: boolean, script: string | null | undefined, prompt: string | null | undefined) {
  if (!iaAlarm) return { ia_script: null, prompt_ia: null };
  return { ia_script: script?.trim() || DEFAULT_IA_SCRIPT, prompt_ia: prompt?.trim() || null };
}

/** The elements a `clinical_element` asks for: the legacy code 0 is 1 (D6). */
const elementsOf = (code: number) => (canonicalElement(code) === 1 ? [0, 1] : [code]);

/**
 * Alarm rules (02 §3): a range on a clinical element with a priority; readings outside it open
 * alerts (alarms.evaluate.ts). Any staff reads, `admin` writes. `clinical_element=` keeps its own
 * meaning (0 and 1 are the same element), so it has no generic filter.
 */
export interface AlarmsDeps {
  /** A deleted rule's alerts stay, unlinked: the alerts module does it (composition root). */
  unlinkAlarm(sequelize: Sequelize, clientId: number, alarmId: number, transaction?: Transaction): Promise<void>;
}

export const alarmsResource = (deps: AlarmsDeps) =>
  defineResource<Alarm, AlarmDto, S['AlarmInput'], S['AlarmUpdate']>({
    name: 'alarms',
    model: Alarm,
    tenant: 'client_id',
    access: { write: 'administer' },
    operations: {
      list: 'listAlarms',
      get: 'getAlarm',
      create: 'createAlarm',
      update: 'updateAlarm',
      patch: 'patchAlarm',
      remove: 'deleteAlarm',
    },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      name: { column: 'name', kind: 'text', sort: true },
      clinical_element: { column: 'clinical_element', kind: 'enum', sort: true, operators: [] },
      priority: { column: 'priority', kind: 'enum', sort: true },
      minimum_condition: { column: 'minimum_condition', kind: 'number' },
      maximum_condition: { column: 'maximum_condition', kind: 'number' },
      ia_alarm: { column: 'ia_alarm', kind: 'boolean' },
      request_repeat_measurement: { column: 'request_repeat_measurement', kind: 'boolean' },
      alarm_default_new_patients: { column: 'alarm_default_new_patients', kind: 'boolean' },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    search: { columns: ['name'], fold: 'lower' },
    notFound: 'La alerta no existe.',
    order: (p) => sortOrder(p, [['name', p.order]], ['id', 'ASC']),
    where: (query): WhereOptions | null =>
      query.clinical_element != null ? { clinical_element: elementsOf(Number(query.clinical_element)) } : null,

    async present(alarms, ctx) {
      const counts = await countPatients(
        ctx.sequelize,
        alarms.map((a) => a.id),
      );
      return alarms.map((a) => toAlarmDto(a, counts.get(a.id) ?? 0));
    },
    async create(input, ctx) {
      const named = alarmName(input, true);
      if (!named.ok) throw badRequest(named.field, named.message);
      checkRange(input.minimum_condition, input.maximum_condition);
      return Alarm.create({
        client_id: ctx.clientId,
        name: named.name!,
        clinical_element: input.clinical_element,
        priority: input.priority,
        minimum_condition: input.minimum_condition,
        maximum_condition: input.maximum_condition,
        ia_alarm: !!input.ia_alarm,
        ...aiFields(!!input.ia_alarm, input.ia_script, input.prompt_ia),
        request_repeat_measurement: !!input.request_repeat_measurement,
        alarm_default_new_patients: !!input.alarm_default_new_patients,
        created_at: ctx.now,
        updated_at: ctx.now,
      });
    },
    async update(alarm, input, ctx) {
      const named = alarmName(input, false);
      if (!named.ok) throw badRequest(named.field, named.message);
      const { name_only: _nameOnly, ...fields } = input;
      const given = Object.fromEntries(Object.entries({ ...fields, name: named.name }).filter(([, v]) => v !== undefined));
      const merged = { ...toAlarmDto(alarm, 0), ...given } as AlarmDto;
      checkRange(merged.minimum_condition, merged.maximum_condition);
      alarm.set({
        name: merged.name.trim(),
        clinical_element: merged.clinical_element,
        priority: merged.priority,
        minimum_condition: merged.minimum_condition,
        maximum_condition: merged.maximum_condition,
        ia_alarm: merged.ia_alarm,
        ...aiFields(merged.ia_alarm, merged.ia_script, merged.prompt_ia),
        request_repeat_measurement: merged.request_repeat_measurement,
        alarm_default_new_patients: merged.alarm_default_new_patients,
        updated_at: ctx.now,
      });
      await alarm.save();
    },
    /** Its assignments go; its alerts keep the rule as it was (name and range), unlinked. */
    async remove(alarm, ctx, transaction) {
      await ctx.sequelize.query('DELETE FROM patient_alarms WHERE alarm_id = :id', { replacements: { id: alarm.id }, transaction });
      await deps.unlinkAlarm(ctx.sequelize, ctx.clientId, alarm.id, transaction);
    },
  });
