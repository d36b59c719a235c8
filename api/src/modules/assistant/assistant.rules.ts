/** Pure rules of the AI assistant: its instructions, its tools and how their arguments are read. */
import type { ChatTool } from '../../adapters/assistant.js';
import { formatDate, formatTime } from '@vigia/contract/rules/dates';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';

export interface InstructionSources {
  clientName: string;
  /** The client's active instruction, if any. */
  client: string | null;
  /** Active instructions of the patient's tags, in tag-name order. */
  tags: { name: string; text: string }[];
  /** The patient's own active instruction. */
  patient: string | null;
  patientName: string;
  timeZone: string;
  now: Date;
  /** Recent readings, newest first. */
  readings: { clinical_element: number; value: number; when: Date }[];
  /** Open orders, as staff read them. */
  orders: string[];
}

/** Name and unit by element id, from the contract's one table (ids 1 to 7 only). */
const ELEMENT_LABELS: Record<number, { name: string; unit: string }> = Object.fromEntries(
  CLINICAL_ELEMENTS.map((e) => [e.id, { name: e.name, unit: e.unit }]),
);

const BASE = [
  'Eres el asistente de acompañamiento de {client}. Conversas por mensajería con {patient}, un paciente en monitorización remota.',
  'Responde en español, con frases cortas, cálidas y claras, y trata al paciente de usted. No diagnostiques ni cambies tratamientos: ante síntomas de alarma indica acudir a urgencias y avisa al equipo con la herramienta crear_alerta.',
  'Si el paciente informa una medición (por ejemplo presión, glucosa, peso, temperatura, frecuencia cardiaca u oximetría), regístrala con registrar_medicion.',
  'Cuando la conversación tenga información útil para el equipo clínico, deja un resumen con guardar_resumen.',
].join('\n');

/** '02/03/2026, 08:05' in the patient's zone: the text the model has always been given. */
const formatWhen = (when: Date, timeZone: string) => `${formatDate(when, timeZone)}, ${formatTime(when, timeZone)}`;

/**
 * The system message: base rules, then the client's, the tags' and the patient's active
 * instructions (most general first, so the most specific is read last and prevails), then the
 * patient's recent readings and open orders. Empty levels are left out.
 */
export function composeInstructions(s: InstructionSources): string {
  const parts = [BASE.replace('{client}', s.clientName).replace('{patient}', s.patientName)];
  if (s.client?.trim()) parts.push(`Instrucciones de ${s.clientName}:\n${s.client.trim()}`);
  for (const tag of s.tags)
    if (tag.text.trim()) parts.push(`Instrucciones para pacientes con la etiqueta ${tag.name}:\n${tag.text.trim()}`);
  if (s.patient?.trim()) parts.push(`Instrucciones para este paciente (prevalecen sobre las anteriores):\n${s.patient.trim()}`);
  parts.push(`Fecha y hora actual del paciente: ${formatWhen(s.now, s.timeZone)} (${s.timeZone}).`);
  if (s.readings.length) {
    const lines = s.readings.map((r) => {
      const e = ELEMENT_LABELS[r.clinical_element];
      return `- ${formatWhen(r.when, s.timeZone)}: ${e?.name ?? `Elemento ${r.clinical_element}`} ${r.value} ${e?.unit ?? ''}`.trimEnd();
    });
    parts.push(`Mediciones recientes:\n${lines.join('\n')}`);
  } else parts.push('Mediciones recientes: ninguna.');
  parts.push(s.orders.length ? `Órdenes abiertas:\n${s.orders.map((o) => `- ${o}`).join('\n')}` : 'Órdenes abiertas: ninguna.');
  return parts.join('\n\n');
}

export const TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'registrar_medicion',
      description: 'Registra una medición que el paciente informa en el chat. Para la presión arterial envía sistólica y diastólica.',
      parameters: {
        type: 'object',
        properties: {
          clinical_element: {
            type: 'integer',
            enum: [1, 2, 3, 5, 6, 7],
            description: '1 frecuencia cardiaca, 2 oximetría, 3 presión arterial, 5 peso, 6 glucosa, 7 temperatura',
          },
          value: { type: 'number', description: 'Valor (para presión, la sistólica)' },
          diastolic: { type: 'number', description: 'Solo presión arterial: la diastólica' },
        },
        required: ['clinical_element', 'value'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'crear_alerta',
      description: 'Avisa al equipo clínico de algo que requiere atención (síntomas, dudas sobre el tratamiento, malestar).',
      parameters: {
        type: 'object',
        properties: {
          description: { type: 'string', description: 'Qué ocurre, en una o dos frases' },
          priority: { type: 'integer', enum: [1, 2, 3], description: '1 alta, 2 media, 3 baja' },
        },
        required: ['description'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'guardar_resumen',
      description: 'Guarda en la ficha del paciente un resumen de la conversación para el equipo clínico.',
      parameters: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
    },
  },
];

/** Plausible values per element: a reading outside is refused (the model misunderstood). */
const RANGES: Record<number, [number, number]> = {
  1: [20, 250],
  2: [50, 100],
  3: [50, 260],
  4: [30, 160],
  5: [1, 350],
  6: [20, 700],
  7: [30, 45],
};

export type ToolAction =
  | { tool: 'registrar_medicion'; readings: { clinical_element: number; value: number }[] }
  | { tool: 'crear_alerta'; description: string; priority: number }
  | { tool: 'guardar_resumen'; summary: string }
  | { tool: 'invalid'; error: string };

/** Reads a tool call's JSON arguments into an action, or says why it cannot be done. */
export function readToolCall(name: string, rawArguments: string): ToolAction {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(rawArguments || '{}');
    if (!args || typeof args !== 'object') throw new Error();
  } catch {
    return { tool: 'invalid', error: 'argumentos no son JSON' };
  }
  if (name === 'registrar_medicion') {
    const element = Number(args.clinical_element);
    const value = Number(args.value);
    const readings: { clinical_element: number; value: number }[] = [];
    if (element === 3) {
      const diastolic = Number(args.diastolic);
      if (!Number.isFinite(diastolic)) return { tool: 'invalid', error: 'falta la presión diastólica' };
      readings.push({ clinical_element: 3, value }, { clinical_element: 4, value: diastolic });
    } else readings.push({ clinical_element: element === 0 ? 1 : element, value });
    for (const r of readings) {
      const range = RANGES[r.clinical_element];
      if (!range) return { tool: 'invalid', error: 'elemento clínico no válido' };
      if (!Number.isFinite(r.value) || r.value < range[0] || r.value > range[1])
        return { tool: 'invalid', error: `valor fuera de lo plausible para el elemento ${r.clinical_element}` };
    }
    return { tool: 'registrar_medicion', readings };
  }
  if (name === 'crear_alerta') {
    const description = typeof args.description === 'string' ? args.description.trim().slice(0, 1000) : '';
    if (!description) return { tool: 'invalid', error: 'falta la descripción' };
    const p = Number(args.priority);
    return { tool: 'crear_alerta', description, priority: [1, 2, 3].includes(p) ? p : 2 };
  }
  if (name === 'guardar_resumen') {
    const summary = typeof args.summary === 'string' ? args.summary.trim().slice(0, 4000) : '';
    if (!summary) return { tool: 'invalid', error: 'falta el resumen' };
    return { tool: 'guardar_resumen', summary };
  }
  return { tool: 'invalid', error: `herramienta desconocida: ${name}` };
}

/** Key of a tool call's effect for one incoming message: a retried reply does not repeat it. */
export function actionKey(name: string, rawArguments: string): string {
  let normal = rawArguments;
  try {
    const parsed = JSON.parse(rawArguments);
    normal = JSON.stringify(
      Object.keys(parsed)
        .sort()
        .map((k) => [k, parsed[k]]),
    );
  } catch {
    /* keep raw */
  }
  return `${name}:${normal}`.slice(0, 200);
}

export interface AlarmScriptInput {
  script: string | null;
  patientName: string;
  alarmName: string;
  clinicalElement: number | null;
  value: number | null;
}

/** Built-in alarm scripts (02 §3 ia_script; 'default' when none is chosen). */
const ALARM_SCRIPTS: Record<string, string> = {
  default:
    'Hola {nombre}, registramos una medición de {elemento} de {valor} que está fuera del rango esperado. ¿Cómo se siente? Si tiene síntomas como dolor en el pecho, dificultad para respirar o mareo, acuda a urgencias. Nuestro equipo ya fue notificado.',
  repetir_medicion:
    'Hola {nombre}, su última medición de {elemento} ({valor}) salió fuera del rango esperado. Por favor repita la medición en 10 minutos, en reposo, y cuéntenos cómo se siente.',
};

/** The message an ia_alarm rule sends when no model is configured (or as the model's starting point). */
export function alarmScriptText(input: AlarmScriptInput): string {
  const template = ALARM_SCRIPTS[input.script ?? ''] ?? ALARM_SCRIPTS.default;
  const e = input.clinicalElement != null ? ELEMENT_LABELS[input.clinicalElement] : undefined;
  const first = input.patientName.trim().split(/\s+/)[0] ?? '';
  const name = first ? first.charAt(0).toUpperCase() + first.slice(1).toLowerCase() : '';
  return template
    .replace('{nombre}', name)
    .replace('{elemento}', e ? e.name.toLowerCase() : input.alarmName.toLowerCase())
    .replace('{valor}', input.value != null ? `${input.value}${e ? ` ${e.unit}` : ''}` : 'reciente');
}
