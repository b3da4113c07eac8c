import iconv from 'iconv-lite';

// Bytes to text in the charset the server or the document names, else UTF-8.

const charsetIn = (contentType: string | undefined): string | undefined =>
  /charset\s*=\s*"?([\w.:-]{1,40})/i.exec(contentType ?? '')?.[1];

/** The charset an HTML document names in its first 2 KB (`<meta charset>` or the http-equiv form). */
const metaCharset = (head: string): string | undefined =>
  /<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]{1,40})/i.exec(head)?.[1];

/**
 * Bytes as text in the named charset, else UTF-8. iconv-lite decodes the legacy charsets: Node 20's
 * TextDecoder reads windows-1252 as ISO-8859-1 (so 0x80 is not the euro sign).
 */
export const decodeText = (bytes: Uint8Array, contentType: string | undefined, html: boolean): string => {
  const named =
    charsetIn(contentType) ?? (html ? metaCharset(Buffer.from(bytes.subarray(0, 2048)).toString('latin1')) : undefined);
  const charset = named && iconv.encodingExists(named) ? named : 'utf-8';
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
};
