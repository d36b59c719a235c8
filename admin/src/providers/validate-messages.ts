import type { FormProps } from 'antd';

/**
 * The messages antd's forms show for a rule that brings none of its own, in the product's voice
 * (docs/style.md, issue 50): 'usted', a full sentence, the field's label. antd's `es_ES` says 'Por
 * favor, rellena ${label}' ('tú') and names types in English ('no es un email válido'). Set once,
 * on the app's ConfigProvider; antd fills `${label}`, `${min}`, `${max}`, `${len}` and `${enum}`.
 */
export const VALIDATE_MESSAGES: NonNullable<FormProps['validateMessages']> = {
  default: '${label} no es válido.',
  required: 'Ingrese ${label}.',
  enum: '${label} debe ser uno de estos valores: ${enum}.',
  whitespace: '${label} no puede quedar en blanco.',
  date: {
    format: '${label} debe ser una fecha en formato d/m/a.',
    parse: '${label} no es una fecha válida.',
    invalid: '${label} no es una fecha válida.',
  },
  types: {
    string: '${label} debe ser un texto.',
    method: '${label} no es válido.',
    array: '${label} no es válido.',
    object: '${label} no es válido.',
    number: '${label} debe ser un número.',
    date: '${label} debe ser una fecha.',
    boolean: '${label} debe ser Sí o No.',
    integer: '${label} debe ser un número entero.',
    float: '${label} debe ser un número.',
    regexp: '${label} no es válido.',
    email: 'Escriba un correo electrónico válido en ${label}.',
    url: 'Escriba una dirección web válida en ${label}.',
    hex: '${label} no es válido.',
  },
  string: {
    len: '${label} debe tener ${len} caracteres.',
    min: '${label} debe tener al menos ${min} caracteres.',
    max: '${label} debe tener máximo ${max} caracteres.',
    range: '${label} debe tener entre ${min} y ${max} caracteres.',
  },
  number: {
    len: '${label} debe ser igual a ${len}.',
    min: '${label} debe ser al menos ${min}.',
    max: '${label} debe ser como máximo ${max}.',
    range: '${label} debe estar entre ${min} y ${max}.',
  },
  array: {
    len: 'Seleccione ${len} en ${label}.',
    min: 'Seleccione al menos ${min} en ${label}.',
    max: 'Seleccione como máximo ${max} en ${label}.',
    range: 'Seleccione entre ${min} y ${max} en ${label}.',
  },
  pattern: {
    mismatch: '${label} no tiene el formato esperado.',
  },
};
