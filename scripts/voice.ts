/**
 * One voice (issue 50, docs/style.md): the texts a person reads, and the problems of voice and
 * spelling in them. The texts are found with the TypeScript compiler, not with regexes over code:
 * string literals, templates (their parts joined, a substitution read as '…') and JSX text.
 * - admin/src, portal/src and contract/: every text of every file but the tests;
 * - api/src: only Spanish prose (the error messages, notifications and documents a person reads);
 *   log lines, SQL and keys are left out;
 * - openapi.yaml: the `x-message` of each field, the message the API and the forms show.
 * The rules are two tables that grow: 'tú' forms (the product says 'usted', to staff and patients
 * alike) and words written without their accent.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface Text {
  file: string;
  line: number;
  text: string;
}

export interface VoiceHit extends Text {
  problem: string;
}

/** Letters on either side of a word end it; JavaScript's \b does not know 'á' or 'ñ'. */
const L = '[\\p{L}\\p{N}_]';
const word = (w: string, flags = 'iu') => new RegExp(`(?<!${L})(?:${w})(?!${L})`, flags);
/** A tú imperative reads like the third person ('se usa', 'el sistema revisa'): only at a sentence's start, or after 'por favor'. */
const imperative = (verbs: string[]) => {
  const lower = verbs.map((v) => v.toLowerCase()).join('|');
  return new RegExp(
    `(?:(?:^|[.!?:;]\\s+|[¿¡("«]\\s*|\\n\\s*)(?:${verbs.join('|')})|(?<!${L})[Pp]or favor,?\\s+(?:${lower}))(?=\\s+\\p{L})`,
    'u',
  );
};

export interface Rule {
  pattern: RegExp;
  problem: string;
}

/** 'tú' forms; the usted form is in the problem. */
export const TU_RULES: Rule[] = [
  { pattern: word('tu|tus'), problem: "'tu/tus' → 'su/sus'" },
  { pattern: word('te'), problem: "'te' → 'le' (or rephrase)" },
  { pattern: word('ti', 'u'), problem: "'ti' → 'usted'" },
  { pattern: word('contigo'), problem: "'contigo' → 'con usted'" },
  { pattern: word('tuyo|tuya|tuyos|tuyas'), problem: "'tuyo' → 'suyo'" },
  {
    pattern: word(
      'puedes|tienes|debes|quieres|estás|eres|necesitas|sabes|vas|haces|prefieres|deseas|sientes|recuerdas|calificas|' +
        'podrás|tendrás|deberás|recibirás|verás|olvidaste|recibiste|ingresaste|hiciste|escribiste|seleccionaste|' +
        'has \\p{L}+(?:ado|ido)',
    ),
    problem: 'tú verb form → usted (puede, tiene, debe, quiere, está, olvidó…)',
  },
  {
    pattern: word(
      'haz|mantén|ten en cuenta|inténtalo|regístrate|comunícate|contáctanos|escríbenos|llámanos|asegúrate|cuéntanos|' +
        'acércate|olvídate|revísalo|revísala|ingrésalo|ingrésala|selecciónalo|selecciónala|elígelo|elígela|descárgalo|descárgala',
    ),
    problem: "tú imperative → usted ('Haga', 'Manténgase', 'Inténtelo', 'Regístrese', 'Cuéntenos'…)",
  },
  {
    // Not 'Prueba', 'Copia', 'Carga', 'Marca', 'Consulta', 'Espera', 'Activa', 'Completa': nouns and adjectives too.
    pattern: imperative([
      'Ingresa',
      'Selecciona',
      'Intenta',
      'Escribe',
      'Revisa',
      'Elige',
      'Usa',
      'Vuelve',
      'Inicia',
      'Crea',
      'Agrega',
      'Añade',
      'Confirma',
      'Verifica',
      'Comprueba',
      'Busca',
      'Guarda',
      'Cierra',
      'Abre',
      'Presiona',
      'Pulsa',
      'Contacta',
      'Llama',
      'Recuerda',
      'Descarga',
      'Sube',
      'Elimina',
      'Edita',
      'Cambia',
      'Indica',
      'Acepta',
      'Cancela',
      'Continúa',
      'Sigue',
      'Lee',
      'Mira',
      'Monitorea',
      'Registra',
      'Define',
    ]),
    problem: "tú imperative → usted ('Ingrese', 'Seleccione', 'Intente', 'Escriba', 'Revise', 'Elija', 'Use', 'Vuelva'…)",
  },
];

/** Words written without their accent; the right spelling is in the problem. */
const MISSPELT: [string, string][] = [
  ['ordenes', 'órdenes'],
  ['codigo|codigos', 'código'],
  ['telefono|telefonos', 'teléfono'],
  ['contrasena|contrasenas', 'contraseña'],
  ['\\p{L}+cion', '…ción'],
  ['numero|numeros', 'número'],
  ['medico|medica|medicos|medicas', 'médico'],
  ['clinico|clinicos|clinicas', 'clínico'],
  ['diagnostico|diagnosticos', 'diagnóstico'],
  ['electronico|electronicos', 'electrónico'],
  ['ultimo|ultima|ultimos|ultimas', 'último'],
  ['proximo|proxima|proximos|proximas', 'próximo'],
  ['pagina|paginas', 'página'],
  ['busqueda|busquedas', 'búsqueda'],
  ['sesion', 'sesión'],
  ['presion', 'presión'],
  ['conexion', 'conexión'],
  ['revision', 'revisión'],
  ['dia|dias', 'día'],
  ['tambien', 'también'],
  ['despues', 'después'],
  ['metodo|metodos', 'método'],
  ['analisis', 'análisis'],
  ['titulo|titulos', 'título'],
  ['sintoma|sintomas', 'síntoma'],
  ['razon', 'razón'],
  ['movil|moviles', 'móvil'],
  ['critico|critica|criticos|criticas', 'crítico'],
  ['cronico|cronica|cronicos|cronicas', 'crónico'],
  ['automatico|automatica|automaticos|automaticas', 'automático'],
  ['unico|unica', 'único'],
  ['pais', 'país'],
  ['oximetria', 'oximetría'],
  ['categoria|categorias', 'categoría'],
  ['bateria', 'batería'],
  ['carácteres', 'caracteres'],
  ['templeate', 'plantilla'],
  ['esta incomplet[oa]', 'está incompleto'],
  ['se cerrara en', 'se cerrará en'],
];

export const SPELLING_RULES: Rule[] = [
  { pattern: word('Vigia', 'u'), problem: "'Vigia' → 'Vigía'" },
  ...MISSPELT.map(([w, right]) => ({ pattern: word(w), problem: `→ '${right}'` })),
];

/** A key, a path, a class name or an identifier in a string is not read by anyone. */
const IDENTIFIER = /^[a-z0-9_.:/#?=&@-]*$/;

/** Addresses and e-mails are not words ('correo@organizacion.co'). */
const ADDRESS = /\S+@\S+|\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

export function voiceProblems(text: string): string[] {
  if (IDENTIFIER.test(text)) return [];
  const prose = text.replace(ADDRESS, ' ');
  const problems: string[] = [];
  for (const { pattern, problem } of [...TU_RULES, ...SPELLING_RULES]) {
    const m = pattern.exec(prose);
    if (m) problems.push(`${problem} ('${m[0].trim()}')`);
  }
  return problems;
}

/** Spanish prose: an inverted mark, an accented letter, or two words joined by a space with a Spanish word among them. */
export function isSpanishProse(text: string): boolean {
  if (!/\s/.test(text.trim())) return false;
  return (
    /[¿¡áéíóúñÁÉÍÓÚÑ]/.test(text) ||
    word('el|la|los|las|de|del|un|una|su|sus|tu|tus|te|que|se|por|para|con|no|es|está|debe|puede').test(text)
  );
}

function isModuleSpecifier(node: ts.Node): boolean {
  const p = node.parent;
  return (
    ((ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) && p.moduleSpecifier === node) ||
    ts.isExternalModuleReference(p) ||
    (ts.isCallExpression(p) && p.expression.kind === ts.SyntaxKind.ImportKeyword) ||
    (ts.isLiteralTypeNode(p) && ts.isImportTypeNode(p.parent))
  );
}

function isPropertyName(node: ts.Node): boolean {
  const p = node.parent;
  return (ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isPropertyDeclaration(p)) && p.name === node;
}

/** Every text of one source file, with its line (of its first letter). */
export function extractTexts(file: string, source: string): Text[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Text[] = [];
  const push = (node: ts.Node, text: string, offset = node.getStart(sf)) => {
    if (!text.trim()) return;
    out.push({ file, line: sf.getLineAndCharacterOfPosition(offset).line + 1, text });
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!isModuleSpecifier(node) && !isPropertyName(node)) push(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      push(node, node.head.text + node.templateSpans.map((s) => `…${s.literal.text}`).join(''));
    } else if (ts.isJsxText(node)) {
      const raw = node.getText(sf);
      const lead = raw.length - raw.trimStart().length;
      push(node, raw.replace(/\s+/g, ' ').trim(), node.getStart(sf) + lead);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The `x-message` values of an OpenAPI document, with their lines. */
export function contractMessages(file: string, source: string): Text[] {
  const lineCounter = new LineCounter();
  const out: Text[] = [];
  visit(parseDocument(source, { lineCounter }), {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === 'x-message' && isScalar(pair.value) && pair.value.range)
        out.push({ file, line: lineCounter.linePos(pair.value.range[0]).line, text: String(pair.value.value) });
    },
  });
  return out;
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name) && !/\.d\.ts$|\.test\.tsx?$|\.cases\.ts$/.test(e.name)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

/** The texts a person reads, across both front ends, the contract and the API's messages. */
export function productTexts(root = ROOT): Text[] {
  const read = (dir: string, keep: (t: Text) => boolean) =>
    listSources(path.join(root, dir)).flatMap((f) => extractTexts(path.relative(root, f), fs.readFileSync(f, 'utf8')).filter(keep));
  return [
    ...contractMessages('openapi.yaml', fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8')),
    ...read('admin/src', () => true),
    ...read('portal/src', () => true),
    ...read('contract', () => true),
    ...read('api/src', (t) => isSpanishProse(t.text)),
  ];
}

/**
 * Texts no person reads, each with its reason: the language model's instructions speak to the
 * model ('Eres el asistente…'), not to the patient it writes to. An entry no text matches any more
 * fails the test, so the list cannot rot.
 */
export const NOT_READ_BY_A_PERSON: { file: string; startsWith: string; reason: string }[] = [
  { file: 'api/src/modules/assistant/assistant.rules.ts', startsWith: 'Eres el asistente', reason: "the model's instructions" },
  { file: 'api/src/modules/assistant/assistant.rules.ts', startsWith: 'Registra una medición', reason: 'a tool description for the model' },
  { file: 'api/src/modules/assistant/assistant.rules.ts', startsWith: 'Guarda en la ficha', reason: 'a tool description for the model' },
  { file: 'api/src/modules/assistant/assistant.service.ts', startsWith: 'Se activó la regla de alarma', reason: "the model's request" },
];

const isExcepted = (t: Text) => NOT_READ_BY_A_PERSON.some((e) => e.file === t.file && t.text.startsWith(e.startsWith));

export function voiceHits(texts: Text[]): VoiceHit[] {
  return texts.filter((t) => !isExcepted(t)).flatMap((t) => voiceProblems(t.text).map((problem) => ({ ...t, problem })));
}

/** Exceptions that no longer match a text. */
export const staleExceptions = (texts: Text[]) =>
  NOT_READ_BY_A_PERSON.filter((e) => !texts.some((t) => t.file === e.file && t.text.startsWith(e.startsWith)));

export const formatHit = (h: VoiceHit) => `${h.file}:${h.line}  ${h.problem}  «${h.text}»`;
