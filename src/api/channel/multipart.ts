import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export interface EncodedMultipart {
  body: Buffer;
  /** `multipart/form-data; boundary=...` */
  contentType: string;
}

/** Quotes a name the way browsers do in `Content-Disposition` (HTML's form encoding). */
function escapeName(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/**
 * Encodes text fields and files as `multipart/form-data`. Built here rather than with `FormData`
 * because undici's dispatcher accepts only its own `FormData` class, which only the transport's
 * undici module may import; a finished buffer is sent as it is.
 */
export function encodeMultipart(
  fields: readonly (readonly [string, string])[],
  files: readonly (readonly [string, MultipartFile])[],
): EncodedMultipart {
  const boundary = `----forge-workbench-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  }
  for (const [name, file] of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"; filename="${escapeName(file.filename)}"\r\n` +
          `Content-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
        'utf8',
      ),
      Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength),
      Buffer.from('\r\n', 'utf8'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
