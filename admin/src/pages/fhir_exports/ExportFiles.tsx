import { useState } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNotification } from '@refinedev/core';
import { isHttpError } from '../../providers/errors';
import { downloadExportFile } from './download-file';
import { PhoneCards, usePhoneLayout } from '../../ui/PhoneCards';
import { exportFileRows, hasFiles, typeName, type ExportFileRow, type FhirExport } from './fhir-exports';

const count = new Intl.NumberFormat('es-CO');

/** One file's 'Descargar': busy while the file comes, the API's message if it does not. */
function DownloadButton({ id, file }: { id: number; file: string }) {
  const [busy, setBusy] = useState(false);
  const { open } = useNotification();
  async function download() {
    setBusy(true);
    try {
      await downloadExportFile(id, file);
    } catch (error) {
      open?.({ type: 'error', message: isHttpError(error) ? error.message : 'No fue posible descargar el archivo' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} aria-label={`Descargar ${file}`}>
      Descargar
    </Button>
  );
}

const NO_FILE = 'Sin recursos: no se escribió archivo';

const fileCell = (f: ExportFileRow) =>
  f.file ? <Typography.Text code>{f.file}</Typography.Text> : <Typography.Text type="secondary">{NO_FILE}</Typography.Text>;

/**
 * An export's files, a row each with its type, name, resource count and download; a type asked for
 * that had no resources says so on its own row (issue 50: 'Todos (9)' must list nine); or why it
 * failed. On a phone, a card per row.
 */
export function ExportFiles({ record }: { record: FhirExport }) {
  const phone = usePhoneLayout();
  if (record.status === 'failed') {
    return <Alert type="error" showIcon message="La exportación falló" description={record.error ?? 'Sin detalle del error.'} />;
  }
  if (!hasFiles(record)) return <Typography.Text type="secondary">Esta exportación no tiene archivos para descargar.</Typography.Text>;
  const rows = exportFileRows(record);
  const download = (f: ExportFileRow) => (f.file ? <DownloadButton id={record.id} file={f.file} /> : null);
  if (phone) {
    return (
      <PhoneCards<ExportFileRow>
        label={`Archivos de la exportación ${record.id}`}
        rows={rows}
        rowKey={(f) => f.file ?? f.type}
        empty="Esta exportación no tiene archivos para descargar."
        title={(f) => `${typeName(f.type)} (${f.type})`}
        fields={[
          { key: 'file', label: 'Archivo', render: fileCell },
          { key: 'count', label: 'Recursos', render: (f) => count.format(f.count) },
        ]}
        actions={download}
      />
    );
  }
  return (
    <Table<ExportFileRow>
      size="small"
      rowKey={(f) => f.file ?? f.type}
      className="fhir-export-files"
      pagination={false}
      dataSource={rows}
      aria-label={`Archivos de la exportación ${record.id}`}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'Datos', dataIndex: 'type', render: (type: string) => `${typeName(type)} (${type})` },
        { title: 'Archivo', key: 'file', render: (_, f) => fileCell(f) },
        { title: 'Recursos', dataIndex: 'count', align: 'right', render: (n: number) => count.format(n) },
        { title: 'Descargar', key: 'download', render: (_, f) => download(f) },
      ]}
    />
  );
}
