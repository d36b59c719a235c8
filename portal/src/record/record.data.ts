import type { Patient } from '../types';
import { displayName } from '@vigia/contract/rules/names';
import { countOf } from '@vigia/contract/rules/plural';

/** Labels and field lists of the patient portal (spec 03 §2 'Patient portal', §3 'Portal patient'). */

export const RECORD_TEXT = {
  header: 'PORTAL DE PACIENTE',
  logout: 'Cerrar sesión',
  greeting: (firstName: string) => `Hola, ${displayName(firstName)}`,
  loading: 'Cargando sus datos…',
  loadFailed: 'No fue posible cargar sus datos.',
  retry: 'Reintentar',
  incomplete: 'Dato Incompleto',
  years: (age: number) => countOf(age, 'año', 'años'),
} as const;

interface FieldSpec {
  label: string;
  /** The text to show, or null when the record lacks it (shown as 'Dato Incompleto'). */
  value: (patient: Patient) => string | null;
}

export interface CardSpec {
  id: string;
  title: string;
  fields: FieldSpec[];
}

const BASIC_CARD: CardSpec = {
  id: 'basic',
  title: 'Datos básicos',
  fields: [
    { label: 'Nombre completo', value: (p) => present(p.full_name) },
    { label: 'Documento', value: (p) => joinPresent([p.id_type_name, p.nid], ' ') },
    { label: 'Edad', value: (p) => (Number.isInteger(p.age) && p.age >= 0 ? RECORD_TEXT.years(p.age) : null) },
    { label: 'Fecha de nacimiento', value: (p) => formatDate(p.birth_date) },
    { label: 'Género', value: (p) => present(p.gender_name) },
    { label: 'Tipo de sangre', value: (p) => formatBloodType(p.blood_type_name, p.rh_factor_name) },
    { label: 'País', value: (p) => present(p.country_name) },
  ],
};

const CONTACT_CARD: CardSpec = {
  id: 'contact',
  title: 'Datos de contacto',
  fields: [
    { label: 'Dirección', value: (p) => present(p.address) },
    { label: 'Barrio', value: (p) => present(p.neighborhood) },
    { label: 'Ciudad', value: (p) => present(p.city_name) },
    { label: 'Teléfono', value: (p) => formatPhone(p.prefix, p.cellphone) },
    { label: 'Correo electrónico', value: (p) => present(p.email) },
  ],
};

const DEMOGRAPHICS_CARD: CardSpec = {
  id: 'demographics',
  title: 'Datos sociodemográficos',
  fields: [
    { label: 'Ocupación', value: (p) => present(p.occupation_name) },
    { label: 'Escolaridad', value: (p) => present(p.scholarship_name) },
    { label: 'Estado Civil', value: (p) => present(p.civil_status_name) },
  ],
};

export const RECORD_CARDS: CardSpec[] = [BASIC_CARD, CONTACT_CARD, DEMOGRAPHICS_CARD];

export function present(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

function joinPresent(values: (string | null | undefined)[], separator: string): string | null {
  const parts = values.map(present);
  return parts.every(Boolean) ? parts.join(separator) : null;
}

/** 'YYYY-MM-DD' to 'dd/mm/yyyy' without going through Date, so no time zone can shift the day. */
export function formatDate(value: string | null | undefined): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  return match ? `${match[3]}/${match[2]}/${match[1]}` : null;
}

/** 'O' and '+' read 'O+'; a spelled-out factor ('Positivo') keeps a space. */
export function formatBloodType(type: string | null | undefined, rh: string | null | undefined): string | null {
  const group = present(type);
  const factor = present(rh);
  if (!group || !factor) return null;
  return /^[+-]$/.test(factor) ? `${group}${factor}` : `${group} ${factor}`;
}

/** '+57 3001234567'; a prefix stored with or without its '+'. */
export function formatPhone(prefix: string | null | undefined, cellphone: string | null | undefined): string | null {
  const number = present(cellphone);
  const code = present(prefix)?.replace(/^\+/, '');
  if (!number) return null;
  return code ? `+${code} ${number}` : number;
}
