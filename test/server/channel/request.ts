/*
 * Request parameters the way the PHP servers see them: query string, urlencoded and multipart bodies merged
 * into one `$_REQUEST` (body wins), `name[]` collected into a list, uploaded files apart (`$_FILES`).
 */

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export class ChannelParams {
  private readonly values = new Map<string, string | string[]>();
  readonly files: UploadedFile[] = [];

  addPairs(pairs: Iterable<readonly [string, string]>): void {
    for (const [key, value] of pairs) {
      if (key.endsWith('[]')) {
        const name = key.slice(0, -2);
        const existing = this.values.get(name);
        this.values.set(name, Array.isArray(existing) ? [...existing, value] : [value]);
      } else {
        this.values.set(key, value);
      }
    }
  }

  /** `array_key_exists`: present, even when empty. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The text of a parameter ('' when absent; the first entry of a list). */
  text(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) return '';
    return Array.isArray(value) ? (value[0] ?? '') : value;
  }

  /** PHP truthiness: absent, '' and '0' are false. */
  truthy(name: string): boolean {
    const value = this.values.get(name);
    if (value === undefined) return false;
    if (Array.isArray(value)) return value.length > 0;
    return value !== '' && value !== '0';
  }

  /** PHP `intval`: the leading integer, 0 when there is none. */
  int(name: string): number {
    const match = /^\s*([+-]?\d+)/.exec(this.text(name));
    return match?.[1] ? Number(match[1]) : 0;
  }

  /** A list parameter (`name[]=a&name[]=b`) or a single comma-free value; empty entries dropped. */
  list(name: string): string[] {
    const value = this.values.get(name);
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).filter((entry) => entry !== '');
  }

  /** Everything, for recording. */
  toRecord(): Record<string, string | string[]> {
    return Object.fromEntries(this.values);
  }
}

/** Parses a `multipart/form-data` body into fields and files; undefined when it is not one. */
export function parseMultipart(
  contentType: string | undefined,
  body: Buffer,
): { fields: [string, string][]; files: UploadedFile[] } | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: [string, string][] = [];
  const files: UploadedFile[] = [];
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    const afterDelimiter = position + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break;
    const headerStart = afterDelimiter + 2; // CRLF
    const headerEnd = body.indexOf('\r\n\r\n', headerStart);
    if (headerEnd === -1) break;
    const next = body.indexOf(delimiter, headerEnd + 4);
    if (next === -1) break;
    const headers = body.subarray(headerStart, headerEnd).toString('utf8');
    const content = body.subarray(headerEnd + 4, next - 2); // the CRLF before the delimiter
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    if (filename === undefined) {
      fields.push([name, content.toString('utf8')]);
    } else {
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
      files.push({ field: name, filename, contentType: type, data: Buffer.from(content) });
    }
    position = next;
  }
  return { fields, files };
}
