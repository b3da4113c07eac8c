import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  readonly field: string;
  readonly name: string;
  readonly mimetype: string;
  readonly content: Uint8Array;
}

const quoted = (s: string) => s.replace(/[\r\n"]/g, (c) => (c === '"' ? '%22' : ' '));

/** A multipart/form-data body: text fields, then one file part (Podio's POST /file/ takes `source` and `filename`). */
export const multipartBody = (
  fields: Readonly<Record<string, string>>,
  file: MultipartFile,
): { contentType: string; data: Uint8Array } => {
  const boundary = `----gateway${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.name)}"\r\nContent-Type: ${file.mimetype || 'application/octet-stream'}\r\n\r\n`,
      'utf8',
    ),
    Buffer.from(file.content),
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
};
