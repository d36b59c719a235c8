import { Collapse, Descriptions, Empty, Typography } from 'antd';
import { formatWhen } from '@vigia/contract/rules/dates';
import { staffTimeZone } from '../../session';
import { readRdaBundle } from './rda-document';

/**
 * The document as a person reads it: its heading and each section of the Composition as a title
 * with its lines; the Bundle's JSON folded under 'Ver JSON' for integrators.
 */
export function RdaDocument({ bundle }: { bundle: Record<string, unknown> }) {
  const timeZone = staffTimeZone();
  const doc = readRdaBundle(bundle, (iso) => formatWhen(iso, timeZone));
  return (
    <>
      {doc.title && (
        <Typography.Title level={2} className="rda-section-title rda-document-title">
          {doc.title}
        </Typography.Title>
      )}
      {doc.facts.length > 0 && (
        <Descriptions
          className="rda-facts"
          size="small"
          column={{ xs: 1, md: 2 }}
          items={doc.facts.map((f) => ({ key: f.label, label: f.label, children: f.value }))}
        />
      )}
      {doc.sections.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="El documento no tiene secciones legibles. Revise el JSON." />
      ) : (
        doc.sections.map((s, i) => (
          <section key={`${i}-${s.title}`} className="rda-section">
            <Typography.Title level={3} className="rda-section-title">
              {s.title}
            </Typography.Title>
            {s.lines.length === 0 ? (
              <Typography.Text type="secondary">Sin información</Typography.Text>
            ) : (
              <ul>
                {s.lines.map((line, j) => (
                  <li key={j}>{line}</li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
      <Collapse
        size="small"
        items={[
          {
            key: 'json',
            label: 'Ver JSON',
            children: (
              // The Bundle as it is sent, for integrators; scrollable by keyboard.
              <pre className="rda-json" tabIndex={0} aria-label="Bundle FHIR en JSON">
                {JSON.stringify(bundle, null, 2)}
              </pre>
            ),
          },
        ]}
      />
    </>
  );
}
