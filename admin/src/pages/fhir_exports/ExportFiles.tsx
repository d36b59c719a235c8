import { useState } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useNotification } from '@refinedev/core';
import { isHttpError } from '../../providers/errors';
import { downloadExportFile } from './download-file';
import { hasFiles, typeName, type FhirExport } from './fhir-exports';

type ExportFile = FhirExport['files'][number];

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

/** An export's files, a row each with its type, name, resource count and download; or why it failed. */
export function ExportFiles({ record }: { record: FhirExport }) {
  if (record.status === 'failed') {
    return <Alert type="error" showIcon message="La exportación falló" description={record.error ?? 'Sin detalle del error.'} />;
  }
  if (!hasFiles(record)) return <Typography.Text type="secondary">Esta exportación no tiene archivos para descargar.</Typography.Text>;
  return (
    <Table<ExportFile>
      size="small"
      rowKey="file"
      className="fhir-export-files"
      pagination={false}
      dataSource={record.files}
      aria-label={`Archivos de la exportación ${record.id}`}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'Datos', dataIndex: 'type', render: (type: string) => `${typeName(type)} (${type})` },
        { title: 'Archivo', dataIndex: 'file', render: (file: string) => <Typography.Text code>{file}</Typography.Text> },
        { title: 'Recursos', dataIndex: 'count', align: 'right', render: (n: number) => count.format(n) },
        { title: 'Descargar', key: 'download', render: (_, f) => <DownloadButton id={record.id} file={f.file} /> },
      ]}
    />
  );
}
