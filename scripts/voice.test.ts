import { describe, expect, it } from 'vitest';
import {
  contractMessages,
  extractTexts,
  formatHit,
  isSpanishProse,
  productTexts,
  staleExceptions,
  voiceHits,
  voiceProblems,
} from './voice';

describe('voiceProblems', () => {
  it.each([
    'Inicia sesión en tu cuenta',
    'Tu cumplimiento',
    'Monitorea a tus pacientes',
    '¿Qué te gustó?',
    'Esto es para ti',
    'Contamos contigo',
    '¿Estás seguro de que quieres eliminar esta alerta?',
    'Puedes elegir una calificación',
    '¿Olvidaste la contraseña?',
    'Ya has ingresado',
    'Cuéntanos cómo ha sido',
    'Asegúrate de que el valor inicial sea menor al valor final.',
    'Haz clic aquí',
    'Ingresa con el correo',
    'No hay alertas. Crea la primera alerta',
    'Escribe una nueva entrada',
    'Por favor selecciona un grupo',
    'Intenta de nuevo',
    'Ordenes',
    'No tiene ordenes por programar',
    'Correo Electronico',
    'Plantilla de Notificacion',
    'Codigo',
    'Telefono',
    'Contrasena',
    'Mínimo 8 carácteres',
    'Bienvenido a Vigia',
  ])('flags %j', (text) => {
    expect(voiceProblems(text)).not.toEqual([]);
  });

  it.each([
    'Inicie sesión en su cuenta',
    'Su cumplimiento',
    '¿Olvidó su contraseña?',
    'Ingresar',
    'Ingrese con el correo',
    'Intente de nuevo',
    'Reintentar',
    'Si no elige uno, se usa el lote vigente que vence primero.',
    'Con ella se firman los eventos; no se vuelve a mostrar.',
    'Si su institución ingresa con inicio de sesión único',
    'La causa del cambio',
    'Antes de las 10:00',
    'Estas alertas',
    'Activa',
    'Prueba',
    'Copia de seguridad',
    'Órdenes',
    'Configuración',
    'Teléfono',
    'Vigía',
    'Mínimo 8 caracteres',
    'patient_notification',
    'npm run client:create -- --admin-email correo@organizacion.co',
    'TI y sistemas',
  ])('leaves %j alone', (text) => {
    expect(voiceProblems(text)).toEqual([]);
  });
});

describe('extractTexts', () => {
  const source = [
    "import x from './tu archivo';",
    "const a = { 'tu clave': 'Ingresa tu correo' };",
    'const b = `Hola ${x}, revisa tus datos`;',
    'const c = <p title="Tu nombre">',
    '  Elige  una opción',
    '</p>;',
  ].join('\n');
  const texts = extractTexts('f.tsx', source);

  it('reads string literals, templates (a substitution as …), JSX attributes and JSX text, each with its line', () => {
    expect(texts).toEqual([
      { file: 'f.tsx', line: 2, text: 'Ingresa tu correo' },
      { file: 'f.tsx', line: 3, text: 'Hola …, revisa tus datos' },
      { file: 'f.tsx', line: 4, text: 'Tu nombre' },
      { file: 'f.tsx', line: 5, text: 'Elige una opción' },
    ]);
  });

  it('reads the x-message of an OpenAPI document', () => {
    expect(contractMessages('o.yaml', 'a:\n  b:\n    x-message: Por favor selecciona\n')).toEqual([
      { file: 'o.yaml', line: 3, text: 'Por favor selecciona' },
    ]);
  });

  it('tells Spanish prose from log lines and keys', () => {
    expect(['La sesión no existe.', 'No hay lotes', '¡Gracias!'].map(isSpanishProse)).toEqual([true, true, false]);
    expect(['unhandled error', 'SELECT id FROM users WHERE x = ?', 'vigia_session'].map(isSpanishProse)).toEqual([false, false, false]);
  });
});

describe('the product speaks one voice (usted) and spells its words (issue 50, docs/style.md)', () => {
  const texts = productTexts();

  it('reads the staff app, the portal, the contract and the API', () => {
    for (const dir of ['openapi.yaml', 'admin/src/', 'portal/src/', 'contract/', 'api/src/'])
      expect(texts.some((t) => t.file.startsWith(dir))).toBe(true);
  });

  it('has no tú form nor known misspelling in any text a person reads', () => {
    const hits = voiceHits(texts).map(formatHit);
    expect(hits, `\n${hits.join('\n')}\n`).toEqual([]);
  });

  it('keeps no exception that matches no text', () => {
    expect(staleExceptions(texts)).toEqual([]);
  });
});
