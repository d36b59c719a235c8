import type { RdaConsultation } from '../fhir/rda.profiles.js';
import { formatWhen } from '@vigia/contract/rules/dates';
import { clinicalElement } from '@vigia/contract/rules/vitals';

/**
 * The Epicrisis of a teleconsultation: the PDF its RDA carries as DocumentReferenceEPIRDA
 * (sectionAddendumDocuments 1..1, base64 in `attachment.data`). A one-page summary in Spanish of
 * the same input the RDA is built from, so the PDF and the document never disagree.
 */

const MARGIN = 48;
const COLORS = { text: '#1f1f1f', muted: '#6b6b6b', rule: '#d9d9d9' };

type Consultation = Omit<RdaConsultation, 'epicrisisPdf'>;

/** The lines of the summary, label and text: pure, so a test can read what the PDF says. */
export function epicrisisLines(c: Consultation, timeZone: string): Array<[string, string]> {
  const p = c.patient;
  const dr = c.practitioner;
  const lines: Array<[string, string]> = [
    ['Institución', `${c.organisation.name} (NIT ${c.organisation.nit}, REPS ${c.organisation.repsCode})`],
    ...(c.site ? ([['Sede', `${c.site.name} (REPS ${c.site.repsCode})`]] as Array<[string, string]>) : []),
    ['Paciente', `${p.row.display}, ${p.documentType.code} ${p.row.nid}, nacido el ${p.row.birth_date}`],
    ['Fecha', `${formatWhen(c.start, timeZone)} a ${formatWhen(c.end, timeZone)}`],
    [
      'Profesional',
      `${dr.givenNames} ${dr.firstSurname}${dr.secondSurname ? ` ${dr.secondSurname}` : ''}, ${dr.profession.display} (RETHUS ${dr.rethusNumber})`,
    ],
    ['Modalidad', `${c.modality.display}; entorno ${c.environment.display}`],
    ['Consulta', `${c.cups.code} ${c.cups.display}`],
    ['Causa externa', c.externalCause.display],
    ['Motivo de consulta', c.reason],
    ['Hallazgos', c.findings],
    [
      'Diagnósticos',
      c.diagnoses
        .map((d, i) => `${d.icd10.code} ${d.icd10.display}${i === 0 ? ` (principal, ${c.mainDiagnosisType.display})` : ''}`)
        .join('; '),
    ],
    ['Mediciones revisadas', c.readings.length ? c.readings.map((r) => readingText(r, timeZone)).join('; ') : 'Ninguna'],
    ['Plan de manejo', c.plan],
    ['Medicación', c.medications.join('; ')],
    ['Factores de riesgo', c.riskFactors.map((f) => `${f.factor.display}: ${f.text}`).join('; ')],
    ['Incapacidad', c.sickLeave.days > 0 ? `${c.sickLeave.scope.display}, ${c.sickLeave.days} días` : 'Sin incapacidad'],
  ];
  return lines;
}

/** 'Presión arterial 158/96 mmHg (04/12/2026 06:02)'; a pair is the blood pressure (groupReadings). */
function readingText(r: Consultation['readings'][number], timeZone: string): string {
  const first = clinicalElement(r.group[0].clinical_element);
  const name = r.group.length === 2 ? 'Presión arterial' : (first?.name ?? 'Medición');
  return `${name} ${r.group.map((m) => m.value).join('/')} ${first?.unit ?? ''} (${formatWhen(r.group[0].when, timeZone)})`.replace(
    '  ',
    ' ',
  );
}

/** The PDF, base64. Its dates are the consultation's, so the same consultation gives the same bytes. */
export async function epicrisisPdf(c: Consultation, timeZone: string): Promise<string> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Epicrisis teleconsulta ${c.id}`, Author: c.organisation.name, CreationDate: c.end },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - MARGIN * 2;
  doc.fillColor(COLORS.text).font('Helvetica-Bold').fontSize(14).text('Epicrisis: Teleconsulta / telemonitoreo', { width });
  doc.moveDown(0.2).font('Helvetica').fontSize(8).fillColor(COLORS.muted);
  doc.text(`Resumen Digital de Atención en Salud (RDA), atención ${c.id}`, { width });
  doc
    .moveDown(0.4)
    .strokeColor(COLORS.rule)
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .stroke()
    .moveDown(0.6);
  for (const [label, text] of epicrisisLines(c, timeZone)) {
    doc.fillColor(COLORS.muted).font('Helvetica-Bold').fontSize(8).text(label.toUpperCase(), { width });
    doc.fillColor(COLORS.text).font('Helvetica').fontSize(9.5).text(text, { width }).moveDown(0.45);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks).toString('base64');
}
