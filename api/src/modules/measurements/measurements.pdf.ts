import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { attachment, type DownloadClaims } from '../../http/downloads.js';
import { notFound } from '../../http/errors.js';
import { ageOn } from '../patients/patients.rules.js';
import { CHARTS, SERIES_NAMES, pairBloodPressure, timeDomain, timeTicks, valueDomain, type ChartPoint } from '@vigia/contract/rules/charts';
import { measurementFilter } from './measurements.service.js';
import { formatValue } from './measurements.rules.js';
import { formatDate, formatWhen, localDate } from '@vigia/contract/rules/dates';
import { countOf } from '@vigia/contract/rules/plural';

/**
 * The patient's vital-signs report (01 §2 Reportes, 03 §7 show_pdf): header with the patient and
 * the period, then per chart a line chart drawn with vectors and the readings, page numbers.
 */

/** Readings listed per element (the chart draws all of them). */
const PDF_TABLE_READINGS = 90;
/** Readings one report reads at most (a year of frequent readings still fits). */
const PDF_MAX_READINGS = 50_000;

const COLORS = { text: '#1f1f1f', muted: '#6b6b6b', grid: '#e5e5e5', axis: '#9a9a9a', band: '#f5f7fa', series: ['#1677ff', '#eb2f96'] };
const MARGIN = 40;

interface ReportPatient {
  id: number;
  client_id: number;
  status: number;
  time_zone: string;
  nid: string;
  first_name: string;
  last_name: string;
  birth_date: string;
  id_type_name: string | null;
  client_name: string;
}

type Doc = PDFKit.PDFDocument;

function ensureSpace(doc: Doc, height: number) {
  if (doc.y + height > doc.page.height - MARGIN - 20) doc.addPage();
}

/** 1, 2 or 5 times a power of ten: round axis steps. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

function valueTicks([from, to]: [number, number]): number[] {
  const step = niceStep((to - from) / 4);
  const ticks: number[] = [];
  for (let v = from; v <= to + step / 1000; v += step) ticks.push(Math.round(v * 10) / 10);
  return ticks;
}

function drawChart(doc: Doc, series: Array<{ name: string; points: ChartPoint[] }>, unit: string, timeZone: string) {
  const x = MARGIN + 34;
  const w = doc.page.width - MARGIN * 2 - 44;
  const h = 130;
  ensureSpace(doc, h + 46);
  // Room above the plot for the unit and the legend.
  const y = doc.y + 16;
  const all = series.flatMap((s) => s.points);
  const tDomain = timeDomain(all)!;
  const raw = valueDomain(all.map((p) => p.value))!;
  const step = niceStep((raw[1] - raw[0]) / 4);
  const vDomain: [number, number] = [Math.floor(raw[0] / step) * step, Math.ceil(raw[1] / step) * step];
  const px = (t: number) => x + ((t - tDomain[0]) / (tDomain[1] - tDomain[0] || 1)) * w;
  const py = (v: number) => y + h - ((v - vDomain[0]) / (vDomain[1] - vDomain[0] || 1)) * h;

  doc.save().rect(x, y, w, h).fill(COLORS.band).restore();
  doc.font('Helvetica').fontSize(7).fillColor(COLORS.muted);
  for (const v of valueTicks(vDomain)) {
    const gy = py(v);
    doc
      .save()
      .moveTo(x, gy)
      .lineTo(x + w, gy)
      .lineWidth(0.5)
      .strokeColor(COLORS.grid)
      .stroke()
      .restore();
    doc.text(formatValue(Math.round(v * 10) / 10), MARGIN - 6, gy - 3, { width: 36, align: 'right', lineBreak: false });
  }
  for (const t of timeTicks(tDomain)) {
    const tx = px(t);
    doc
      .save()
      .moveTo(tx, y + h)
      .lineTo(tx, y + h + 3)
      .strokeColor(COLORS.axis)
      .stroke()
      .restore();
    // 'dd/mm hh:mm': the day and month of formatWhen's 'dd/mm/aaaa hh:mm'.
    const label = formatWhen(t, timeZone);
    doc.text(`${label.slice(0, 5)} ${label.slice(-5)}`, tx - 30, y + h + 5, {
      width: 60,
      align: 'center',
      lineBreak: false,
    });
  }
  doc.text(unit, x - 30, y - 12, { width: 60, align: 'left', lineBreak: false });
  doc.save().rect(x, y, w, h).lineWidth(0.6).strokeColor(COLORS.axis).stroke().restore();

  series.forEach((s, i) => {
    const color = COLORS.series[i % COLORS.series.length];
    const pts = [...s.points].sort((a, b) => a.when - b.when);
    doc.save().lineWidth(1.2).strokeColor(color);
    pts.forEach((p, j) => (j === 0 ? doc.moveTo(px(p.when), py(p.value)) : doc.lineTo(px(p.when), py(p.value))));
    if (pts.length > 1) doc.stroke();
    doc.restore();
    if (pts.length <= 120) for (const p of pts) doc.save().circle(px(p.when), py(p.value), 1.6).fill(color).restore();
  });
  if (series.length > 1) {
    let lx = x + w - 150;
    series.forEach((s, i) => {
      doc
        .save()
        .rect(lx, y - 9, 8, 4)
        .fill(COLORS.series[i])
        .restore();
      doc.fillColor(COLORS.text).text(s.name, lx + 11, y - 11, { lineBreak: false });
      lx += 70;
    });
  }
  doc.x = MARGIN;
  doc.y = y + h + 18;
}

/** The readings, newest first, three (date, value) pairs per line. */
function drawTable(doc: Doc, rows: Array<{ when: number; text: string }>, total: number, header: string, timeZone: string) {
  const cols = 3;
  const colW = (doc.page.width - MARGIN * 2) / cols;
  const lineH = 12;
  const list = [...rows].sort((a, b) => b.when - a.when).slice(0, PDF_TABLE_READINGS);
  const drawHeader = () => {
    const hy = doc.y;
    doc.font('Helvetica-Bold').fontSize(7.5).fillColor(COLORS.muted);
    for (let c = 0; c < cols; c++) {
      doc.text('Fecha y hora', MARGIN + c * colW + 4, hy, { width: colW * 0.6, lineBreak: false });
      doc.text(header, MARGIN + c * colW + colW * 0.6, hy, { width: colW * 0.38 - 4, align: 'right', lineBreak: false });
    }
    doc.y = hy + lineH;
  };
  ensureSpace(doc, lineH * 3);
  drawHeader();
  for (let i = 0; i < list.length; i += cols) {
    if (doc.y + lineH > doc.page.height - MARGIN - 20) {
      doc.addPage();
      drawHeader();
    }
    const rowY = doc.y;
    if ((i / cols) % 2 === 0)
      doc
        .save()
        .rect(MARGIN, rowY - 2, doc.page.width - MARGIN * 2, lineH)
        .fill('#fafafa')
        .restore();
    doc.font('Helvetica').fontSize(8).fillColor(COLORS.text);
    for (let c = 0; c < cols && i + c < list.length; c++) {
      const r = list[i + c];
      doc.text(formatWhen(r.when, timeZone), MARGIN + c * colW + 4, rowY, { width: colW * 0.6, lineBreak: false });
      doc.text(r.text, MARGIN + c * colW + colW * 0.6, rowY, { width: colW * 0.38 - 4, align: 'right', lineBreak: false });
    }
    doc.y = rowY + lineH;
  }
  if (total > list.length) {
    doc
      .font('Helvetica-Oblique')
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(`Se muestran las ${list.length} lecturas más recientes de ${total}.`, MARGIN, doc.y + 2);
  }
  doc.x = MARGIN;
  doc.y += 10;
}

function summary(values: number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const avg = values.reduce((a, b) => a + b, 0) / values.length;
  return `${countOf(values.length, 'lectura', 'lecturas')} · mínimo ${formatValue(min)} · máximo ${formatValue(max)} · promedio ${formatValue(Math.round(avg * 10) / 10)}`;
}

export async function streamMeasurementsPdf(sequelize: Sequelize, claims: DownloadClaims, res: Response, now: Date): Promise<void> {
  const [patient] = await select<ReportPatient>(
    sequelize,
    `SELECT p.id, p.client_id, p.status, p.time_zone, p.nid, p.first_name, p.last_name, p.birth_date, t.name AS id_type_name, c.name AS client_name
     FROM patients p JOIN clients c ON c.id = p.client_id LEFT JOIN id_types t ON t.id = p.id_type WHERE p.id = :id AND p.client_id = :c`,
    { id: Number(claims.params.patient_id), c: claims.clientId },
  );
  if (!patient) throw notFound('El paciente no existe.');
  const start = new Date(String(claims.params.start));
  const end = new Date(String(claims.params.end));
  const { where, replacements } = measurementFilter(patient, { start, end });
  const rows = await select<{ clinical_element: number; value: number; when: Date | string }>(
    sequelize,
    `SELECT clinical_element, value, "when" FROM measurements WHERE ${where} ORDER BY "when", id LIMIT ${PDF_MAX_READINGS}`,
    replacements,
  );
  const byElement = new Map<number, ChartPoint[]>();
  for (const r of rows) {
    const list = byElement.get(r.clinical_element) ?? [];
    list.push({ when: (r.when instanceof Date ? r.when : new Date(r.when)).getTime(), value: Number(r.value) });
    byElement.set(r.clinical_element, list);
  }

  const tz = patient.time_zone;
  // Loaded with the first PDF: pdfkit and its fonts are 24 MB the server would otherwise hold from start.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Signos vitales ${patient.first_name} ${patient.last_name}`, Author: patient.client_name },
  });
  res.status(200);
  res.setHeader('Content-Type', 'application/pdf');
  attachment(res, `signos-vitales-${patient.nid}.pdf`, true);
  doc.pipe(res);

  // Header
  doc.font('Helvetica-Bold').fontSize(17).fillColor(COLORS.text).text('Reporte de signos vitales', MARGIN, MARGIN);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(patient.client_name, MARGIN, MARGIN + 4, { align: 'right' });
  doc
    .moveTo(MARGIN, MARGIN + 26)
    .lineTo(doc.page.width - MARGIN, MARGIN + 26)
    .lineWidth(1)
    .strokeColor('#1677ff')
    .stroke();
  const info: Array<[string, string]> = [
    ['Paciente', `${patient.first_name} ${patient.last_name}`],
    ['Documento', `${patient.id_type_name ?? ''} ${patient.nid}`.trim()],
    ['Edad', countOf(ageOn(patient.birth_date, localDate(now, tz)), 'año', 'años')],
    ['Cliente', patient.client_name],
    ['Periodo', `${formatDate(start, tz)} a ${formatDate(end.getTime() - 1, tz)}`],
    ['Generado', `${formatWhen(now, tz)} (${tz})`],
  ];
  let iy = MARGIN + 36;
  const half = (doc.page.width - MARGIN * 2) / 2;
  info.forEach(([label, value], i) => {
    const ix = MARGIN + (i % 2) * half;
    doc.font('Helvetica-Bold').fontSize(9).fillColor(COLORS.muted).text(`${label}:`, ix, iy, { width: 62, lineBreak: false });
    doc
      .font('Helvetica')
      .fillColor(COLORS.text)
      .text(value, ix + 62, iy, { width: half - 66, lineBreak: false, ellipsis: true });
    if (i % 2 === 1) iy += 15;
  });
  doc.x = MARGIN;
  doc.y = iy + 10;

  for (const chart of CHARTS) {
    // A heading stays with its chart: start a page when both do not fit.
    ensureSpace(doc, byElement.has(chart.elements[0]) ? 230 : 40);
    doc.font('Helvetica-Bold').fontSize(12).fillColor(COLORS.text).text(`${chart.title} (${chart.unit})`, MARGIN, doc.y);
    if (chart.key === 'blood_pressure') {
      const sys = byElement.get(3) ?? [];
      const dia = byElement.get(4) ?? [];
      const pairs = pairBloodPressure(sys, dia);
      if (!sys.length && !dia.length) {
        doc.font('Helvetica').fontSize(9).fillColor(COLORS.muted).text('Sin lecturas en el periodo.').moveDown(0.8);
        continue;
      }
      doc
        .font('Helvetica')
        .fontSize(8.5)
        .fillColor(COLORS.muted)
        .text(`Sistólica: ${summary(sys.map((p) => p.value))}`)
        .text(`Diastólica: ${summary(dia.map((p) => p.value))}`);
      drawChart(
        doc,
        [
          { name: SERIES_NAMES[3], points: sys },
          { name: SERIES_NAMES[4], points: dia },
        ],
        chart.unit,
        tz,
      );
      if (pairs)
        drawTable(
          doc,
          pairs.map((p) => ({ when: p.when, text: `${formatValue(p.systolic)}/${formatValue(p.diastolic)}` })),
          pairs.length,
          'Sis/Dia',
          tz,
        );
      continue;
    }
    const points = byElement.get(chart.elements[0]) ?? [];
    if (!points.length) {
      doc.font('Helvetica').fontSize(9).fillColor(COLORS.muted).text('Sin lecturas en el periodo.').moveDown(0.8);
      continue;
    }
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(COLORS.muted)
      .text(summary(points.map((p) => p.value)));
    drawChart(doc, [{ name: chart.title, points }], chart.unit, tz);
    drawTable(
      doc,
      points.map((p) => ({ when: p.when, text: formatValue(p.value) })),
      points.length,
      'Valor',
      tz,
    );
  }

  // Page numbers, once the page count is known.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(`Página ${i + 1} de ${range.count}`, MARGIN, doc.page.height - 28, {
        width: doc.page.width - MARGIN * 2,
        align: 'right',
        lineBreak: false,
      })
      .text(`${patient.first_name} ${patient.last_name} · ${patient.nid}`, MARGIN, doc.page.height - 28, { lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await finished(res);
}
