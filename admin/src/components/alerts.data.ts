import { PRIORITY_NAMES, elementName } from '@vigia/contract/rules/alarms';
import { PRIORITIES } from '@vigia/contract/rules/charts';

/** 02 §9: priority colours (1 error, 2 amber, 3 primary), the contract's table the charts use too. */
export const PRIORITY_COLORS: Record<number, string> = { 1: PRIORITIES[1].color, 2: PRIORITIES[2].color, 3: PRIORITIES[3].color };
export const PRIORITY_TAG: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'processing' };
export const PRIORITY_OPTIONS = [1, 2, 3].map((value) => ({ value, label: PRIORITY_NAMES[value] }));
export const ELEMENT_OPTIONS = [1, 2, 3, 4, 5, 6, 7].map((value) => ({ value, label: elementName(value) }));
export const TYPE_OPTIONS = [
  { value: 0, label: 'Medición fuera de rango' },
  { value: 1, label: 'Cumplimiento de mediciones' },
  { value: 2, label: 'Cumplimiento de medicación' },
  { value: 3, label: 'Alerta del asistente IA' },
];
/** Opening a detail from a list waits 500 ms (02 §2.1). */
export const DETAIL_DELAY_MS = 500;
/** The manager asks for new alerts this often (P65 short polling). */
export const POLL_MS = 5000;
