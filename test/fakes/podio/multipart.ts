// multipart/form-data bodies, as Podio's POST /file/ takes them.

export interface MultipartPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Buffer;
}

export const parseMultipart = (contentType: string, bytes: Buffer): MultipartPart[] | undefined => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes.subarray(start, start + 2).toString() === '--') return parts;
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const part = bytes.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const head = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition: form-data; name="([^"]*)"(?:; filename="([^"]*)")?/i.exec(head);
    if (!disposition) return undefined;
    const type = /content-type: (.+)/i.exec(head);
    parts.push({
      name: disposition[1]!,
      ...(disposition[2] !== undefined ? { filename: disposition[2] } : {}),
      ...(type ? { contentType: type[1]!.trim() } : {}),
      data: part.subarray(split + 4),
    });
    at = next;
  }
  return undefined;
};
