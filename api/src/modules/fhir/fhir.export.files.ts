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

/**
 * Which numbers a writer gives its files: `first`, `first + step`, … A type exported in P parts at
 * once numbers part k's files k+1, k+1+P, …: the parts never pick the same name, and names still
 * match FILE_NAME (a part with fewer files leaves gaps, which a manifest's URLs do not mind).
 */
export interface FileNumbering {
  first: number;
  step: number;
}

export class NdjsonSplitWriter {
  private stream: WriteStream | null = null;
  private current: ExportFile | null = null;
  readonly files: ExportFile[] = [];

  constructor(
    private readonly dir: string,
    private readonly type: string,
    private readonly perFile: number,
    private readonly numbering: FileNumbering = { first: 1, step: 1 },
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

  /**
   * A page of resources at once: one string per file it falls into, written with one call (a write
   * per resource cost more than reading the rows did).
   */
  async writeMany(resources: ReadonlyArray<{ resourceType: string }>): Promise<void> {
    const other = resources.find((r) => r.resourceType !== this.type);
    if (other) throw new Error(`Recurso ${other.resourceType} en el archivo de ${this.type}`);
    let i = 0;
    while (i < resources.length) {
      if (!this.stream || !this.current || this.current.count >= this.perFile) await this.open();
      const room = this.perFile - this.current!.count;
      const part = resources.slice(i, i + room);
      let text = '';
      for (const r of part) text += `${JSON.stringify(r)}\n`;
      this.current!.count += part.length;
      i += part.length;
      if (!this.stream!.write(text)) await once(this.stream!, 'drain');
    }
  }

  private async open(): Promise<void> {
    await this.closeCurrent();
    await mkdir(this.dir, { recursive: true });
    const n = this.numbering.first + this.files.length * this.numbering.step;
    const file = path.join(this.dir, `${this.type}.${n}.ndjson`);
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
