import zlib from 'node:zlib';

/**
 * The text a PDF written by PDFKit shows, one line per text-showing operator. PDFKit writes the
 * standard fonts' text as hex strings in WinAnsi (`[<4865> 0 <6c6c6f>] TJ`) inside deflated page
 * streams; this inflates every stream and decodes those strings, enough to assert what a reader
 * sees without a PDF library.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      content = m[1];
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
      const hex = [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      lines.push(new TextDecoder('windows-1252').decode(Buffer.from(hex, 'hex')));
    }
  }
  return lines.join('\n');
}
