import type { Sequelize, Transaction } from 'sequelize';
import type { ChatMessage } from '../../adapters/assistant.js';
import { AppError } from '../../http/errors.js';
import { execute, select, sqlIn } from '../../db/sql.js';
import type { JobRow } from '../../jobs/queue.js';
import { raiseAlert } from '../alerts/alerts.raise.js';
import { ingestReadings } from '../measurements/measurements.ingest.js';
import { ASSISTANT_REPLY_JOB, queueOutboundMessage } from '../messages/messages.outbox.js';
import type { MessageRow, MessagingDeps } from '../messages/messages.service.js';
import { TOOLS, actionKey, alarmScriptText, composeInstructions, readToolCall, type InstructionSources } from './assistant.rules.js';

import { ALARM_MESSAGE_JOB } from '../messages/alarm-notify.js';
import { PROMPT_STATUS } from '@vigia/contract/rules/prompts';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { ORDER_STATUS } from '@vigia/contract/rules/activities';

/** Who signs the notes the assistant writes (observation type 5). */
const ASSISTANT_AUTHOR = 'Asistente IA';
const HISTORY = 12;
const MAX_ROUNDS = 4;

const missingTable = (err: unknown) => /no such table|does not exist/i.test(String((err as Error)?.message));

/** Reads that depend on other areas' tables (prompts, orders) answer empty until those exist. */
async function optional<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (err) {
    if (missingTable(err)) return [];
    throw err;
  }
}

interface PatientCtx {
  id: number;
  client_id: number;
  first_name: string;
  last_name: string;
  status: number;
  time_zone: string;
}

/** Everything composeInstructions needs, read from the record. */
async function loadInstructionSources(
  sequelize: Sequelize,
  clientId: number,
  patientId: number,
  now: Date,
): Promise<{ patient: PatientCtx; sources: InstructionSources }> {
  const [patient] = await select<PatientCtx>(
    sequelize,
    'SELECT id, client_id, first_name, last_name, status, time_zone FROM patients WHERE id = :id AND client_id = :clientId',
    {
      id: patientId,
      clientId,
    },
  );
  if (!patient) throw new Error(`asistente: paciente ${patientId} no existe`);
  const [client] = await select<{ name: string }>(sequelize, 'SELECT name FROM clients WHERE id = :id', { id: clientId });
  const prompts = await optional(() =>
    select<{ owner_type: string; owner_id: number; text: string }>(
      sequelize,
      `SELECT owner_type, owner_id, text FROM prompts WHERE client_id = :clientId AND status = ${PROMPT_STATUS.active} AND (
         (owner_type = 'client' AND owner_id = :clientId) OR (owner_type = 'patient' AND owner_id = :patientId)
         OR (owner_type = 'tag' AND owner_id IN (SELECT tag_id FROM patient_tags WHERE patient_id = :patientId)))`,
      { clientId, patientId },
    ),
  );
  const tagIds = prompts.filter((p) => p.owner_type === 'tag').map((p) => p.owner_id);
  const tagNames = new Map<number, string>();
  if (tagIds.length) {
    for (const t of await select<{ id: number; name: string }>(
      sequelize,
      'SELECT id, name FROM tags WHERE client_id = :clientId AND id IN (:ids)',
      { clientId, ids: tagIds },
    ))
      tagNames.set(t.id, t.name);
  }
  const readings = await select<{ clinical_element: number; value: number; when: string | Date }>(
    sequelize,
    `SELECT clinical_element, value, "when" FROM measurements WHERE client_id = :clientId AND patient_id = :patientId AND status <> ${MEASUREMENT_STATUS.deleted} ORDER BY "when" DESC, id DESC LIMIT 10`,
    { clientId, patientId },
  );
  const orders = await optional(() =>
    select<{ description: string | null; to_human: string | null }>(
      sequelize,
      `SELECT * FROM orders WHERE client_id = :clientId AND patient_id = :patientId AND status IN ${sqlIn(ORDER_STATUS.unmanaged, ORDER_STATUS.scheduled, ORDER_STATUS.running)} ORDER BY id DESC LIMIT 10`,
      { clientId, patientId },
    ),
  );
  return {
    patient,
    sources: {
      clientName: client?.name ?? '',
      client: prompts.find((p) => p.owner_type === 'client')?.text ?? null,
      tags: prompts
        .filter((p) => p.owner_type === 'tag')
        .map((p) => ({ name: tagNames.get(p.owner_id) ?? '', text: p.text }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      patient: prompts.find((p) => p.owner_type === 'patient')?.text ?? null,
      patientName: `${patient.first_name} ${patient.last_name}`,
      timeZone: patient.time_zone,
      now,
      readings: readings.map((r) => ({ clinical_element: Number(r.clinical_element), value: Number(r.value), when: new Date(r.when) })),
      orders: orders.map((o) =>
        String(
          (o as Record<string, unknown>).to_human ??
            (o as Record<string, unknown>).description ??
            (o as Record<string, unknown>).medication ??
            'Orden',
        ),
      ),
    },
  };
}

function contentOf(m: MessageRow): string {
  const parts: string[] = [];
  if (m.body) parts.push(m.body);
  if (m.attachment_kind === 'image') parts.push('[El paciente envió una imagen]');
  if (m.attachment_kind === 'audio')
    parts.push(m.transcription ? `[Audio transcrito] ${m.transcription}` : '[El paciente envió un audio sin transcripción]');
  return parts.join('\n') || '[Mensaje vacío]';
}

/** Runs one tool call once per incoming message (assistant_actions), answering what the model is told. */
async function runTool(
  deps: MessagingDeps,
  records: AssistantRecords,
  message: MessageRow,
  patient: PatientCtx,
  name: string,
  args: string,
): Promise<string> {
  const action = readToolCall(name, args);
  if (action.tool === 'invalid') return `No se pudo: ${action.error}`;
  const key = actionKey(name, args);
  const now = deps.now();
  const claim = async (transaction?: Transaction) =>
    execute(
      deps.sequelize,
      `INSERT INTO assistant_actions (client_id, message_id, action_key, result, created_at) VALUES (:clientId, :messageId, :key, NULL, :now)
       ON CONFLICT (message_id, action_key) DO NOTHING`,
      { clientId: patient.client_id, messageId: message.id, key, now },
      transaction,
    );
  const ctx = { sequelize: deps.sequelize, now, jobs: deps.jobs };
  if (action.tool === 'registrar_medicion') {
    if (!(await claim())) return 'Ya registrada.';
    try {
      const [first, second] = action.readings;
      const input =
        first.clinical_element === 3
          ? { clinical_element: 3, systolic: first.value, diastolic: second?.value }
          : { clinical_element: first.clinical_element, value: first.value };
      const { stored } = await ingestReadings(
        { sequelize: deps.sequelize, jobs: deps.jobs, now: deps.now },
        { clientId: patient.client_id, source: 'assistant', items: [{ patient: { id: patient.id, status: patient.status }, input }] },
      );
      return `Medición registrada (${stored.length} valor${stored.length === 1 ? '' : 'es'}).`;
    } catch (err) {
      await execute(deps.sequelize, 'DELETE FROM assistant_actions WHERE message_id = :messageId AND action_key = :key', {
        messageId: message.id,
        key,
      });
      if (err instanceof AppError && err.status < 500) return `No se pudo registrar: ${err.message}`;
      throw err;
    }
  }
  return deps.sequelize.transaction(async (transaction) => {
    if (!(await claim(transaction))) return 'Ya realizado.';
    if (action.tool === 'crear_alerta') {
      await raiseAlert(
        { ...ctx, transaction },
        { client_id: patient.client_id, patient_id: patient.id, alert_type: 3, priority: action.priority, description: action.description },
      );
      return 'Alerta creada; el equipo clínico fue notificado.';
    }
    await records.recordSummary(
      { clientId: patient.client_id, patientId: patient.id, text: action.summary, author: ASSISTANT_AUTHOR, now },
      transaction,
    );
    return 'Resumen guardado en la ficha.';
  });
}

/** Answers one incoming patient message with the model, tools included; the reply is queued marked AI. */
async function reply(deps: MessagingDeps, records: AssistantRecords, job: JobRow) {
  const model = deps.model;
  if (!model) return;
  const messageId = Number((job.payload as { message_id: number }).message_id);
  const [message] = await select<MessageRow>(deps.sequelize, 'SELECT * FROM messages WHERE id = :id', { id: messageId });
  if (!message?.patient_id) return;
  const [answered] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM messages WHERE reply_to_id = :id', { id: messageId });
  if (answered) return;
  // A later message of the same patient has its own reply job, which answers both.
  const [newer] = await select<{ id: number }>(
    deps.sequelize,
    "SELECT id FROM messages WHERE client_id = :c AND patient_id = :p AND message_type = 'incoming' AND id > :id LIMIT 1",
    { c: message.client_id, p: message.patient_id, id: messageId },
  );
  if (newer) return;
  const now = deps.now();
  const { patient, sources } = await loadInstructionSources(deps.sequelize, message.client_id, message.patient_id, now);
  if (patient.status === 3) return;
  // The conversation as Vigía received it, up to this message (P148): ids are given in arrival
  // order, so the last turn is always the message being answered, whatever time the provider gave it.
  const history = await select<MessageRow>(
    deps.sequelize,
    'SELECT * FROM messages WHERE client_id = :c AND patient_id = :p AND id <= :id ORDER BY id DESC LIMIT :n',
    { c: message.client_id, p: message.patient_id, id: messageId, n: HISTORY },
  );
  const messages: ChatMessage[] = [{ role: 'system', content: composeInstructions(sources) }];
  for (const m of history.reverse()) {
    if (m.message_type === 'incoming') messages.push({ role: 'user', content: contentOf(m) });
    else if (m.body) messages.push({ role: 'assistant', content: m.body });
  }
  let text: string | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const answer = await model.complete(messages, TOOLS);
    if (!answer.toolCalls.length) {
      text = answer.content?.trim() || null;
      break;
    }
    messages.push({ role: 'assistant', content: answer.content, tool_calls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const result = await runTool(deps, records, message, patient, call.function.name, call.function.arguments);
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
    text = answer.content?.trim() || null;
  }
  if (!text) return;
  await deps.sequelize.transaction(async (transaction) => {
    const [again] = await select<{ id: number }>(
      deps.sequelize,
      'SELECT id FROM messages WHERE reply_to_id = :id',
      { id: messageId },
      transaction,
    );
    if (again) return;
    await queueOutboundMessage(
      { sequelize: deps.sequelize, transaction, now: deps.now(), jobs: deps.jobs },
      {
        client_id: message.client_id,
        patient_id: patient.id,
        kind: 'text',
        body: text!.slice(0, 4096),
        reason: 'assistant',
        ai: true,
        reply_to_id: messageId,
      },
    );
  });
}

interface AlarmAlert {
  id: number;
  client_id: number;
  patient_id: number;
  alarm_id: number | null;
  clinical_element: number | null;
  value: number | null;
  alarm_name: string | null;
}

/** The message of an ia_alarm rule: the script, reworded by the model with prompt_ia when one is configured. */
async function alarmMessage(deps: MessagingDeps, job: JobRow, useModel: boolean) {
  const alertId = Number((job.payload as { alert_id: number }).alert_id);
  const [alert] = await select<AlarmAlert>(
    deps.sequelize,
    'SELECT id, client_id, patient_id, alarm_id, clinical_element, value, alarm_name FROM alerts WHERE id = :id',
    { id: alertId },
  );
  if (!alert?.alarm_id) return;
  const [sent] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM messages WHERE alert_id = :id', { id: alertId });
  if (sent) return;
  const [alarm] = await select<{ name: string; ia_script: string | null; prompt_ia: string | null }>(
    deps.sequelize,
    'SELECT name, ia_script, prompt_ia FROM alarms WHERE id = :id',
    { id: alert.alarm_id },
  );
  const now = deps.now();
  const { patient, sources } = await loadInstructionSources(deps.sequelize, alert.client_id, alert.patient_id, now);
  if (patient.status === 3) return;
  const script = alarmScriptText({
    script: alarm?.ia_script ?? null,
    patientName: patient.first_name,
    alarmName: alarm?.name ?? alert.alarm_name ?? '',
    clinicalElement: alert.clinical_element,
    value: alert.value != null ? Number(alert.value) : null,
  });
  let text = script;
  let ai = false;
  if (useModel && deps.model) {
    const answer = await deps.model.complete([
      { role: 'system', content: composeInstructions(sources) },
      {
        role: 'user',
        content: [
          `Se activó la regla de alarma "${alarm?.name ?? alert.alarm_name ?? ''}". Escribe un único mensaje breve para el paciente basado en este guion:`,
          script,
          alarm?.prompt_ia ? `Indicaciones de la regla: ${alarm.prompt_ia}` : '',
          'Responde solo con el texto del mensaje.',
        ]
          .filter(Boolean)
          .join('\n\n'),
      },
    ]);
    if (answer.content?.trim()) {
      text = answer.content.trim().slice(0, 4096);
      ai = true;
    }
  }
  await queueOutboundMessage(
    { sequelize: deps.sequelize, now, jobs: deps.jobs },
    { client_id: alert.client_id, patient_id: alert.patient_id, kind: 'text', body: text, reason: 'alarm', ai, alert_id: alertId },
  );
}

/** What the assistant writes in other modules' tables, handed in by the composition root (one writer per table). */
export interface AssistantRecords {
  /** A conversation summary on the patient's record (the observations module's). */
  recordSummary(
    v: { clientId: number; patientId: number; text: string; author: string; now: Date },
    transaction: Transaction,
  ): Promise<unknown>;
}

export function registerAssistantJobs(deps: MessagingDeps, records: AssistantRecords) {
  deps.jobs.register(ASSISTANT_REPLY_JOB, { handler: (job) => reply(deps, records, job) });
  deps.jobs.register(ALARM_MESSAGE_JOB, {
    handler: (job) => alarmMessage(deps, job, true),
    // The model stayed down: the patient still gets the rule's script.
    onFailed: async (job) => alarmMessage(deps, job, false),
  });
}
