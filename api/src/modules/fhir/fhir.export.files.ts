/**
 * Bulk Data export (issue 37): writes one resource type's NDJSON files, split at a set number of
 * resources per file, with backpressure (awaits 'drain'), so memory stays bounded whatever the size.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';

export interface ExportFile {
  type: string;
  file: string;
  count: number;
}

export class NdjsonSplitWriter {
  private stream: WriteStream | null = null;
  private current: ExportFile | null = null;
  readonly files: ExportFile[] = [];

  constructor(
    private readonly dir: string,
    private readonly type: string,
    private readonly perFile: number,
  ) {
    if (!Number.isInteger(perFile) || perFile < 1) throw new Error('perFile debe ser un entero ≥ 1');
  }

  async write(resource: { resourceType: string }): Promise<void> {
    if (resource.resourceType !== this.type) {
      throw new Error(`Recurso ${resource.resourceType} en el archivo de ${this.type}`);
    }
    if (!this.stream || !this.current || this.current.count >= this.perFile) await this.open();
    const ok = this.stream!.write(`${JSON.stringify(resource)}\n`);
    this.current!.count += 1;
    if (!ok) await once(this.stream!, 'drain');
  }

  private async open(): Promise<void> {
    await this.closeCurrent();
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${this.type}.${this.files.length + 1}.ndjson`);
    this.current = { type: this.type, file, count: 0 };
    this.files.push(this.current);
    this.stream = createWriteStream(file, { flags: 'w' });
  }

  private async closeCurrent(): Promise<void> {
    if (!this.stream) return;
    const s = this.stream;
    this.stream = null;
    s.end();
    await once(s, 'finish');
  }

  /** Closes the last file; answers the files written (none when no resource came). */
  async close(): Promise<ExportFile[]> {
    await this.closeCurrent();
    return this.files;
  }
}
